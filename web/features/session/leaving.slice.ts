import { createSlice } from '@reduxjs/toolkit'

/// Signing out or deleting the account navigates to a public page and forgets the cached
/// session. The page it goes to may still be loading (its chunk, say) when get-session already
/// answers "nobody": without this flag the guard still on screen would redirect on its own, and
/// its redirect would replace the one carrying the notice ("You are signed out.").
export const leavingSlice = createSlice({
  name: 'leaving',
  initialState: { leaving: false },
  reducers: {
    left: (state) => {
      state.leaving = true
    },
    arrived: (state) => {
      state.leaving = false
    },
  },
  selectors: { isLeaving: (state) => state.leaving },
})

export const { left, arrived } = leavingSlice.actions
export const { isLeaving } = leavingSlice.selectors

import { combineSlices, configureStore } from '@reduxjs/toolkit'
import { leavingSlice } from '../features/session/leaving.slice.js'
import { api } from './api.js'

// Server state lives in RTK Query's cache; besides it only a navigation flag (never a credential).
const rootReducer = combineSlices(api, leavingSlice)

export type RootState = ReturnType<typeof rootReducer>

export const makeStore = (preloadedState?: Partial<RootState>) =>
  configureStore({
    reducer: rootReducer,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(api.middleware),
    preloadedState,
  })

export type AppStore = ReturnType<typeof makeStore>
export type AppDispatch = AppStore['dispatch']

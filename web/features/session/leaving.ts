import { useSyncExternalStore } from 'react'

/// Signing out or deleting the account navigates to a public page and forgets the cached
/// session. The page it goes to may still be loading (its chunk, say) when get-session already
/// answers "nobody": without this flag the guard still on screen would redirect on its own, and
/// its redirect would replace the one carrying the notice ("You are signed out."). Kept outside
/// the store, so the public pages that set it back need no store.
let leaving = false
const listeners = new Set<() => void>()

const set = (value: boolean) => {
  if (leaving === value) return
  leaving = value
  for (const listener of listeners) listener()
}

export const left = () => set(true)
export const arrived = () => set(false)

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

export const useLeaving = (): boolean => useSyncExternalStore(subscribe, () => leaving)

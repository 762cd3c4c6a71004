import { combineSlices, configureStore } from '@reduxjs/toolkit'
import { api } from './api.js'

// Server state lives in RTK Query's cache; nothing else (and no credential) is kept in the store.
const rootReducer = combineSlices(api)

export type RootState = ReturnType<typeof rootReducer>

export const makeStore = (preloadedState?: Partial<RootState>) =>
  configureStore({
    reducer: rootReducer,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(api.middleware),
    preloadedState,
  })

export type AppStore = ReturnType<typeof makeStore>
export type AppDispatch = AppStore['dispatch']

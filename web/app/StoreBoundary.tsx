import { setupListeners } from '@reduxjs/toolkit/query'
import { useContext } from 'react'
import { Provider, ReactReduxContext } from 'react-redux'
import { Outlet } from 'react-router'
import { api } from './api.js'
import { onSignedIn } from './session-events.js'
import { type AppStore, makeStore } from './store.js'

/// The store (Redux Toolkit and RTK Query) is its own chunk, loaded by the routes that need it:
/// the account area and the pages mailed links lead to. The pages a visit starts on do without.

const forgetting = new WeakSet<AppStore>()

/** A later sign-in on a page without the store: whatever it cached was about someone else. */
const forgetOnSignIn = (store: AppStore) => {
  if (forgetting.has(store)) return
  forgetting.add(store)
  onSignedIn(() => store.dispatch(api.util.resetApiState()))
}

let theStore: AppStore | null = null

const storeOnce = (): AppStore => {
  if (theStore === null) {
    theStore = makeStore()
    // Enables refetchOnFocus / refetchOnReconnect: a device signed out elsewhere notices on return.
    setupListeners(theStore.dispatch)
  }
  return theStore
}

/** Renders the routes under it inside the store, created once (or the one given, in tests). */
export const StoreBoundary = () => {
  const given = useContext(ReactReduxContext)
  const store = (given?.store as AppStore | undefined) ?? storeOnce()
  forgetOnSignIn(store)
  if (given !== null) return <Outlet />
  return (
    <Provider store={store}>
      <Outlet />
    </Provider>
  )
}

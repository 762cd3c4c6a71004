import { useCallback } from 'react'
import { api } from '../../app/api.js'
import { useAppDispatch } from '../../app/hooks.js'
import { left } from './leaving.slice.js'
import { sessionApi } from './session.api.js'

/** Re-reads get-session now and waits for it, so the next page sees who is signed in. */
export const useRefreshSession = () => {
  const dispatch = useAppDispatch()
  return useCallback(async () => {
    const request = dispatch(sessionApi.endpoints.getSession.initiate(undefined, { forceRefetch: true }))
    try {
      await request.unwrap()
    } finally {
      request.unsubscribe()
    }
  }, [dispatch])
}

/**
 * Drops everything cached about the person who just left (sign-out, deleted account). Call it
 * right after navigating away from the protected pages. The navigation is a transition that may
 * wait for the next page's code; until the page arrives (`arrived`), the guard still on screen
 * shows its loading frame instead of redirecting on its own (see leaving.slice.ts).
 */
export const useForgetSession = () => {
  const dispatch = useAppDispatch()
  return useCallback(() => {
    dispatch(left())
    dispatch(api.util.resetApiState())
  }, [dispatch])
}

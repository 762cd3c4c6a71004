import { useCallback } from 'react'
import { api } from '../../app/api.js'
import { useAppDispatch } from '../../app/hooks.js'
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
 * right after navigating away from the protected pages: the router applies navigation as a
 * transition, after this store change, so a guard still on screen only sees an empty cache (and
 * waits for get-session) rather than a signed-out answer that would make it redirect on its own.
 */
export const useForgetSession = () => {
  const dispatch = useAppDispatch()
  return useCallback(() => {
    dispatch(api.util.resetApiState())
  }, [dispatch])
}

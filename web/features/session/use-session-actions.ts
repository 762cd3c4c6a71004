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

/** Drops everything cached about the person who just left (sign-out, deleted account). */
export const useForgetSession = () => {
  const dispatch = useAppDispatch()
  return useCallback(() => {
    dispatch(api.util.resetApiState())
    // Known to be signed out: record it so pages do not ask the server again before redirecting.
    void dispatch(sessionApi.util.upsertQueryData('getSession', undefined, null))
  }, [dispatch])
}

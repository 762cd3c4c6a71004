import { useCallback } from 'react'
import { api } from '../../app/api.js'
import { useAppDispatch } from '../../app/hooks.js'
import { left } from './leaving.js'
import { noteLeftOnPurpose } from './session-ended.js'

/**
 * Drops everything cached about the person who just left (sign-out, deleted account). Call it
 * right after navigating away from the protected pages. The navigation is a transition that may
 * wait for the next page's code; until the page arrives (`arrived`), the guard still on screen
 * shows its loading frame instead of redirecting on its own (see leaving.ts).
 */
export const useForgetSession = () => {
  const dispatch = useAppDispatch()
  return useCallback(() => {
    left()
    noteLeftOnPurpose()
    dispatch(api.util.resetApiState())
  }, [dispatch])
}

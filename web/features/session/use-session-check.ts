import { useEffect, useState } from 'react'
import { request } from '../../app/http.js'

export type SessionCheck = { isLoading: boolean; signedIn: boolean }

/** Whether anyone is signed in on this browser, asked once when the page opens (no store needed). */
export const useSessionCheck = (): SessionCheck => {
  const [check, setCheck] = useState<SessionCheck>({ isLoading: true, signedIn: false })
  useEffect(() => {
    let current = true
    request<unknown>('/get-session').then(
      (answer) => current && setCheck({ isLoading: false, signedIn: answer !== null }),
      // A failed check must not lock anyone out of signing in.
      () => current && setCheck({ isLoading: false, signedIn: false }),
    )
    return () => {
      current = false
    }
  }, [])
  return check
}

import { useEffect } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router'
import { Loading } from '../../ui/Skeleton.js'
import { ADD_ACCOUNT_PARAM, returnPathFrom } from '../auth/navigation-state.js'
import { arrived } from './leaving.js'
import { useSessionCheck } from './use-session-check.js'

/**
 * Sign-in, sign-up and forgot-password are for people who are signed out: a signed-in person is
 * sent on to their account (or to the page sign-in was asked for), instead of piling up sessions;
 * except on purpose, to add another account to the device (`/sign-in?add-account`).
 */
export const GuestOnly = () => {
  const location = useLocation()
  const { isLoading, signedIn } = useSessionCheck()
  useEffect(() => {
    arrived()
  }, [])
  // Adding another account to the device is the one reason a signed-in person signs in again.
  if (new URLSearchParams(location.search).has(ADD_ACCOUNT_PARAM) && location.pathname === '/sign-in')
    return <Outlet />
  if (isLoading) return <Loading />
  // Sign-in goes to the same place when it succeeds, so the two never disagree.
  if (signedIn) return <Navigate to={returnPathFrom(location.state)} replace />
  return <Outlet />
}

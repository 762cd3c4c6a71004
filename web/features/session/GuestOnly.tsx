import { useEffect } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router'
import { useAppDispatch } from '../../app/hooks.js'
import { Loading } from '../../ui/Skeleton.js'
import { returnPathFrom } from '../auth/navigation-state.js'
import { arrived } from './leaving.slice.js'
import { useGetSessionQuery } from './session.api.js'

/**
 * Sign-in, sign-up and forgot-password are for people who are signed out: a signed-in person is
 * sent on to their account (or to the page sign-in was asked for), instead of piling up sessions.
 */
export const GuestOnly = () => {
  const location = useLocation()
  const { data, isLoading } = useGetSessionQuery()
  const dispatch = useAppDispatch()
  useEffect(() => {
    dispatch(arrived())
  }, [dispatch])
  if (isLoading) return <Loading />
  // Sign-in goes to the same place when it succeeds, so the two never disagree.
  if (data) return <Navigate to={returnPathFrom(location.state)} replace />
  // A failed session check must not lock anyone out of signing in.
  return <Outlet />
}

import { Navigate, Outlet, useLocation, useOutletContext } from 'react-router'
import { AccountFrame, NavSkeleton } from '../../app/frames.js'
import { ErrorState } from '../../ui/ErrorState.js'
import { Loading } from '../../ui/Skeleton.js'
import { messageFor } from '../errors/messages.js'
import { useLeaving } from './leaving.js'
import { type SignedIn, useGetSessionQuery } from './session.api.js'
import { noteSignedIn, SESSION_ENDED_NOTICE, sessionEnded } from './session-ended.js'

/** Guards the pages that need a session: they render only for a signed-in person. */
export const RequireSession = () => {
  const location = useLocation()
  // Asked afresh on entering the account area: a sign-in on a public page may have changed who it is.
  const { data, isFetching, isError, error, refetch } = useGetSessionQuery(undefined, {
    refetchOnMountOrArgChange: true,
  })
  const leaving = useLeaving()
  if (data) {
    noteSignedIn()
    return <Outlet context={data} />
  }
  if (isFetching || data === undefined || leaving) {
    return (
      <AccountFrame nav={<NavSkeleton />}>
        {isError && !isFetching ? (
          <ErrorState message={messageFor(error)} onRetry={() => void refetch()} />
        ) : (
          <Loading label="Loading your account…" cards={2} />
        )}
      </AccountFrame>
    )
  }
  // Come back here after signing in; a session that ended under the person's feet is said so.
  const from = `${location.pathname}${location.search}`
  return (
    <Navigate
      to="/sign-in"
      replace
      state={sessionEnded() ? { from, notice: SESSION_ENDED_NOTICE } : { from }}
    />
  )
}

/** The signed-in person, for pages under `RequireSession`. */
export const useSignedIn = (): SignedIn => useOutletContext<SignedIn>()

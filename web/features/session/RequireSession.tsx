import { Navigate, Outlet, useLocation, useOutletContext } from 'react-router'
import { messageFor } from '../errors/messages.js'
import { FormAlert } from '../forms/Feedback.js'
import { Loading } from '../forms/Loading.js'
import { type SignedIn, useGetSessionQuery } from './session.api.js'

/** Guards the pages that need a session: they render only for a signed-in person. */
export const RequireSession = () => {
  const location = useLocation()
  const { data, isFetching, isError, error, refetch } = useGetSessionQuery()
  if (data) return <Outlet context={data} />
  if (isFetching || data === undefined) {
    if (isError && !isFetching) {
      return (
        <main id="main" className="page narrow">
          <FormAlert>{messageFor(error)}</FormAlert>
          <button type="button" className="button button-primary" onClick={() => void refetch()}>
            Try again
          </button>
        </main>
      )
    }
    return <Loading />
  }
  // Come back here after signing in.
  return <Navigate to="/sign-in" replace state={{ from: `${location.pathname}${location.search}` }} />
}

/** The signed-in person, for pages under `RequireSession`. */
export const useSignedIn = (): SignedIn => useOutletContext<SignedIn>()

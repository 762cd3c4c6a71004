import { Navigate } from 'react-router'
import { Loading } from '../../ui/Skeleton.js'
import { useSessionCheck } from './use-session-check.js'

/** `/`: the account for a signed-in person, sign-in for everyone else. */
export const Home = () => {
  const { isLoading, signedIn } = useSessionCheck()
  if (isLoading) return <Loading />
  return <Navigate to={signedIn ? '/account' : '/sign-in'} replace />
}

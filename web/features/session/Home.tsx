import { Navigate } from 'react-router'
import { Loading } from '../../ui/Skeleton.js'
import { useGetSessionQuery } from './session.api.js'

/** `/`: the account for a signed-in person, sign-in for everyone else. */
export const Home = () => {
  const { data, isLoading } = useGetSessionQuery()
  if (isLoading) return <Loading />
  return <Navigate to={data ? '/account' : '/sign-in'} replace />
}

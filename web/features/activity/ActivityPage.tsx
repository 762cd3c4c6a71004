import { useTitle } from '../../app/use-title.js'
import { ActivityList } from './ActivityList.js'

export const ActivityPage = () => {
  useTitle('Activity')
  return (
    <>
      <h1>Activity</h1>
      <p>Everything that happened on your account, newest first. Only you can see this.</p>
      <ActivityList />
    </>
  )
}

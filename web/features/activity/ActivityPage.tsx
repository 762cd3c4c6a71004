import { Card } from '../../ui/Card.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { ActivityList } from './ActivityList.js'

export const ActivityPage = () => (
  <>
    <PageHeading
      title="Activity"
      description="Everything that happened on your account, newest first. Only you can see this."
    />
    <Card title="Recent activity">
      <ActivityList />
    </Card>
  </>
)

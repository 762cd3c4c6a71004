import { Card } from '../../ui/Card.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { useSignedIn } from '../session/RequireSession.js'
import { DangerZone } from './DangerZone.js'
import { ProfileForm } from './ProfileForm.js'

export const ProfilePage = () => {
  const { user } = useSignedIn()
  return (
    <>
      <PageHeading title="Profile" description="Your name, username and picture, as applications see them." />
      <Card title="Public profile">
        <ProfileForm user={user} />
      </Card>
      <DangerZone user={user} />
    </>
  )
}

import { Link } from 'react-router'
import { Card } from '../../ui/Card.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { useSignedIn } from '../session/RequireSession.js'
import { ChangePasswordForm } from './ChangePasswordForm.js'

export const PasswordPage = () => {
  const { user } = useSignedIn()
  return (
    <>
      <PageHeading title="Password" description="Change the password you sign in with." />
      <Card
        title="Change password"
        description={
          <>
            Devices you sign out can sign in again only with the new password. See them under{' '}
            <Link to="/account/security">Security</Link>.
          </>
        }
      >
        <ChangePasswordForm email={user.email} />
      </Card>
    </>
  )
}

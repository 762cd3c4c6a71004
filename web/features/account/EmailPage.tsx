import { PageHeading } from '../../ui/PageHeading.js'
import { useSignedIn } from '../session/RequireSession.js'
import { CurrentEmail, EmailSection } from './EmailSection.js'

export const EmailPage = () => {
  const { user } = useSignedIn()
  return (
    <>
      <PageHeading title="Email" description="The address your account signs in with." />
      <CurrentEmail user={user} />
      <EmailSection user={user} />
    </>
  )
}

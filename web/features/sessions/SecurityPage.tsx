import { PageHeading } from '../../ui/PageHeading.js'
import { ConnectedApplications } from '../oauth-provider/ConnectedApplications.js'
import { PasskeysSection } from '../passkeys/PasskeysSection.js'
import { useSignedIn } from '../session/RequireSession.js'
import { ConnectedAccounts } from '../social/ConnectedAccounts.js'
import { TwoFactorSection } from '../two-factor/TwoFactorSection.js'
import { SessionList } from './SessionList.js'

export const SecurityPage = () => {
  const { session } = useSignedIn()
  return (
    <>
      <PageHeading
        title="Security"
        description="How you sign in, and the devices and applications signed in to your account."
      />
      <SessionList currentSessionId={session.id} />
      <ConnectedAccounts />
      <TwoFactorSection />
      <PasskeysSection />
      <ConnectedApplications />
    </>
  )
}

import { PageHeading } from '../../ui/PageHeading.js'
import { ClientsManager } from './ClientsManager.js'

const CONSOLE = { organizationId: null }

/** The console's OAuth clients: the applications that sign people in through Tessera. */
export const OAuthClientsPage = () => (
  <>
    <PageHeading
      title="OAuth clients"
      description="Applications that sign people in with their Tessera account (OpenID Connect)."
    />
    <ClientsManager scope={CONSOLE} />
  </>
)

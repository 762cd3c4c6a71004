import { PageHeading } from '../../ui/PageHeading.js'
import { WebhookEndpoints } from './WebhookEndpoints.js'

/// The console's webhooks: service-wide endpoints, which receive every organization's events and
/// every person's. The server checks each call (an operator's session, or the server key).

export const WebhooksConsolePage = () => (
  <>
    <PageHeading
      title="Webhooks"
      documentTitle="Webhooks · Console"
      description="Service-wide endpoints: they receive the events of every account and organization."
    />
    <WebhookEndpoints
      organizationId={null}
      description="Each event is signed with the endpoint’s secret and sent in log order, at least once."
    />
  </>
)

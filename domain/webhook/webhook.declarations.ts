/// Webhook endpoint events concern no person: their only sealed field is the signing secret, under
/// a data key of the endpoint's own (erased when the endpoint is deleted). They are not in anyone's
/// activity feed; the audit trail (metadata) says who acted.

import type { EventDeclarations } from '../shared/event-declaration.js'
import { type WebhookEvent, webhookSecretSubject } from './webhook.events.js'

const endpoint = ({ endpointId }: { endpointId: string }) => webhookSecretSubject(endpointId)

export const WEBHOOK_EVENT_DECLARATIONS: EventDeclarations<WebhookEvent> = {
  'webhook.endpoint-created': {
    subject: endpoint,
    personal: ['secret'],
    activity: null,
    invalidates: 'nothing',
  },
  'webhook.endpoint-updated': { subject: endpoint, personal: [], activity: null, invalidates: 'nothing' },
  // `forget`: the deletion destroys the endpoint's data key in the same transaction, so its secret
  // is unreadable in the log from then on (infra/event-store/personal-data/erasure.ts).
  'webhook.endpoint-deleted': { subject: endpoint, personal: [], activity: 'forget', invalidates: 'nothing' },
  'webhook.secret-rotated': {
    subject: endpoint,
    personal: ['secret'],
    activity: null,
    invalidates: 'nothing',
  },
  'webhook.endpoint-disabled': { subject: endpoint, personal: [], activity: null, invalidates: 'nothing' },
  'webhook.replay-requested': { subject: endpoint, personal: [], activity: null, invalidates: 'nothing' },
  'webhook.resend-requested': { subject: endpoint, personal: [], activity: null, invalidates: 'nothing' },
}

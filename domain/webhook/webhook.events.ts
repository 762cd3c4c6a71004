/// Events of the webhook endpoint aggregate: one stream per endpoint (`webhook-<id>`). The signing
/// secret travels in `created` and `secret-rotated` only, declared personal under the endpoint's own
/// data key (see webhook.declarations.ts): the log holds it sealed, never plain, and deleting the
/// endpoint erases it.

export const webhookStream = (endpointId: string): string => `webhook-${endpointId}`

/** The data key a webhook's secret is sealed under. */
export const webhookSecretSubject = (endpointId: string): string => `webhook-endpoint-${endpointId}`

export type WebhookEvent =
  | {
      type: 'webhook.endpoint-created'
      data: {
        endpointId: string
        url: string
        eventTypes: string[]
        /** Null: a service-wide endpoint, registered by an operator. */
        organizationId: string | null
        description: string | null
        /** `whsec_` and base64 of the key; sealed in the log. */
        secret: string
        /** The person who registered it (mailed when it is disabled); null for a backend. */
        createdBy: string | null
        createdAt: string
      }
    }
  | {
      type: 'webhook.endpoint-updated'
      data: { endpointId: string; url?: string; eventTypes?: string[]; enabled?: boolean }
    }
  | { type: 'webhook.endpoint-deleted'; data: { endpointId: string } }
  | {
      type: 'webhook.secret-rotated'
      /** The previous secret keeps signing beside the new one until `previousValidUntil`. */
      data: { endpointId: string; secret: string; previousValidUntil: string }
    }
  | {
      type: 'webhook.endpoint-disabled'
      /** Deliveries kept failing for the whole retry period. */
      data: { endpointId: string; failingSince: string }
    }
  | {
      type: 'webhook.replay-requested'
      /** `after`: a log position (`tx:seq`); deliveries start again with the next event. */
      data: { endpointId: string; after: string }
    }
  | {
      type: 'webhook.resend-requested'
      /**
       * One message sent again, alone, with its own `webhook-id` (`eventId`); `after` is the log
       * position just before that event, where the reactor reads it back.
       */
      data: { endpointId: string; eventId: string; after: string }
    }

export type WebhookEventType = WebhookEvent['type']

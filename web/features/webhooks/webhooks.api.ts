import { api } from '../../app/api.js'

/// The webhook routes (command-api/webhooks, query-api/webhooks): one organization's endpoints when
/// `organizationId` is given, the service-wide ones (operators) when it is null.

export type WebhookEndpoint = {
  id: string
  url: string
  eventTypes: string[]
  organizationId: string | null
  description: string | null
  enabled: boolean
  createdAt: string
}

export type WebhookDelivery = {
  id: string
  eventId: string
  eventType: string
  attempt: number
  ok: boolean
  status: number | null
  error: string | null
  at: string
  latencyMs: number
  /** The cursor that replays from this event (it first, then every later one). */
  replayFrom: string | null
  /** Sent again on request (`/webhook/resend`), alone. */
  resent: boolean
}

type Scope = { organizationId: string | null }

const scoped = ({ organizationId }: Scope) => (organizationId === null ? {} : { organizationId })

const webhooksApi = api.enhanceEndpoints({ addTagTypes: ['Webhooks', 'WebhookDeliveries'] }).injectEndpoints({
  endpoints: (build) => ({
    webhookEventTypes: build.query<{ version: string; eventTypes: string[] }, void>({
      query: () => '/webhook/event-types',
    }),
    listWebhooks: build.query<WebhookEndpoint[], Scope>({
      query: (scope) => ({ url: '/webhook/list', params: scoped(scope) }),
      providesTags: ['Webhooks'],
    }),
    createWebhook: build.mutation<
      { endpoint: WebhookEndpoint; secret: string },
      Scope & { url: string; eventTypes: string[]; description?: string }
    >({
      query: ({ organizationId, ...body }) => ({
        url: '/webhook/create',
        method: 'POST',
        body: { ...body, ...scoped({ organizationId }) },
      }),
      invalidatesTags: ['Webhooks'],
    }),
    updateWebhook: build.mutation<
      WebhookEndpoint,
      { endpointId: string; enabled?: boolean; eventTypes?: string[] }
    >({
      query: (body) => ({ url: '/webhook/update', method: 'POST', body }),
      invalidatesTags: ['Webhooks'],
    }),
    deleteWebhook: build.mutation<{ success: boolean }, { endpointId: string }>({
      query: (body) => ({ url: '/webhook/delete', method: 'POST', body }),
      invalidatesTags: ['Webhooks'],
    }),
    rotateWebhookSecret: build.mutation<{ secret: string }, { endpointId: string }>({
      query: (body) => ({ url: '/webhook/rotate-secret', method: 'POST', body }),
    }),
    webhookDeliveries: build.query<WebhookDelivery[], { endpointId: string }>({
      query: ({ endpointId }) => ({ url: '/webhook/deliveries', params: { endpointId, limit: 50 } }),
      providesTags: ['WebhookDeliveries'],
    }),
    replayWebhook: build.mutation<{ success: boolean }, { endpointId: string; after: string }>({
      query: (body) => ({ url: '/webhook/replay', method: 'POST', body }),
      invalidatesTags: ['WebhookDeliveries'],
    }),
    resendWebhookMessage: build.mutation<{ success: boolean }, { endpointId: string; eventId: string }>({
      query: (body) => ({ url: '/webhook/resend', method: 'POST', body }),
      invalidatesTags: ['WebhookDeliveries'],
    }),
  }),
})

export const {
  useWebhookEventTypesQuery,
  useListWebhooksQuery,
  useCreateWebhookMutation,
  useUpdateWebhookMutation,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useWebhookDeliveriesQuery,
  useReplayWebhookMutation,
  useResendWebhookMessageMutation,
} = webhooksApi

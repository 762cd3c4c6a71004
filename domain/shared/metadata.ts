/// Who caused an event, and from where. Every event carries this; it is what the audit log shows.

export type Actor =
  | { type: 'user'; userId: string }
  | { type: 'api-key'; apiKeyId: string }
  /** An application backend calling the server API with the server key configured under `name`. */
  | { type: 'server'; name: string }
  /** A directory provisioning through an SCIM connection, with the credential it presented. */
  | { type: 'scim'; connectionId: string; credentialId: string }
  | { type: 'system' }
  | { type: 'anonymous' }

export type EventMetadata = {
  actor: Actor
  ip: string | null
  userAgent: string | null
  correlationId: string
  causationId: string | null
  /** ISO-8601 instant the command was decided at. */
  at: string
  /**
   * The operator who acted through an impersonation session: the actor is the person whose
   * session it was, and this names who really acted (both identities, for the audit trail).
   */
  impersonatedBy?: string
  /**
   * Set on read when the subject's personal data was erased (its data key destroyed): the
   * personal fields, `ip` and `userAgent` included, then read as null. Never written.
   */
  erased?: boolean
  /**
   * The version of the event's data shape (domain/shared/upcasting.ts), stamped on append for a type
   * past its first version; absent means 1. Reads see it current: older events are upcast.
   */
  schemaVersion?: number
}

/**
 * Where a client was, as the operator's proxy or CDN placed its address (their GeoIP, passed on in
 * headers Tessera is told to believe): an ISO 3166-1 alpha-2 country code and a city name, each
 * null when the proxy did not say. Personal data, like the address it derives from.
 */
export type Place = { country: string | null; city: string | null }

/**
 * Where a command came from, in plain terms: an HTTP request, the CLI or the server API each
 * describe themselves this way, so use cases never see a transport's objects.
 */
export type RequestOrigin = {
  /** Correlates every event one request caused. */
  requestId: string
  ip: string | null
  userAgent: string | null
  /** Where the client was, when a trusted proxy said so; absent or null when unknown. */
  place?: Place | null
  /** The operator behind the request's session when it is an impersonation. */
  impersonatedBy?: string | null
}

export const metadataFor = (origin: RequestOrigin, actor: Actor, now: Date): EventMetadata => ({
  actor,
  ip: origin.ip,
  userAgent: origin.userAgent,
  correlationId: origin.requestId,
  causationId: null,
  at: now.toISOString(),
  ...(origin.impersonatedBy ? { impersonatedBy: origin.impersonatedBy } : {}),
})

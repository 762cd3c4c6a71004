/// Who caused an event, and from where. Every event carries this; it is what the audit log shows.

export type Actor =
  | { type: 'user'; userId: string }
  | { type: 'api-key'; apiKeyId: string }
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
   * Set on read when the subject's personal data was erased (its data key destroyed): the
   * personal fields, `ip` and `userAgent` included, then read as null. Never written.
   */
  erased?: boolean
}

/// The port the command context holds for counting API key uses (api-key-uses.ts implements it),
/// apart from its implementation so that command-api/context.ts can name it without a circle.

export type ApiKeyUses = {
  /** A verification of a key without usage or rate limit: counted here, written by the next flush. */
  count(keyId: string, at: Date): void
  /** Writes the buffered uses, then appends the summaries that are due. */
  flush(): Promise<void>
  /** Deletes the rows of keys revoked a while ago, recording the uses they still held. */
  sweep(): Promise<void>
  /** Writes this process's buffered uses of one key now (before its uses are taken for its end). */
  flushKey(keyId: string): Promise<void>
  /** Flushes every second and sweeps every minute until `stop` (which flushes once more). */
  start(): void
  stop(): Promise<void>
}

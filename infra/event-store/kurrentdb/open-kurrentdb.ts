/// Opening KurrentDB from `KURRENTDB_URL` for the event store. A connection string the client cannot
/// read, or a server that does not answer, stops the start with a message naming the variable;
/// the URL may hold a password, so it is never echoed.

import { FORWARDS, KurrentDBClient, START } from '@kurrent/kurrentdb-client'
import { ConfigError } from '../../config/config-error.js'
import { clientLog } from './kurrent-client-log.js'
import type { KurrentLog } from './kurrent-log.js'
import { DEFAULT_APPEND_DEADLINE_MS } from './kurrentdb-event-store.js'

export const KURRENTDB_URL = 'KURRENTDB_URL'

/** How long the start waits for the server's first answer. */
export const DEFAULT_PROBE_TIMEOUT_MS = 5000

export type OpenedKurrentLog = {
  log: KurrentLog
  /** Fails with a `ConfigError` naming KURRENTDB_URL unless the server answers a read of `$all`. */
  checkReachable(timeoutMs?: number): Promise<void>
}

export const openKurrentLog = (
  url: string,
  options: { onSubscriptionError?: (error: unknown) => void } = {},
): OpenedKurrentLog => {
  let client: KurrentDBClient
  try {
    client = KurrentDBClient.connectionString(url)
  } catch (error) {
    throw new ConfigError(
      KURRENTDB_URL,
      `${KURRENTDB_URL} is not a KurrentDB connection string (kurrentdb://host:2113?tls=false, kurrentdb+discover://…): ${reasonOf(error, url)}`,
    )
  }
  const log = clientLog(client, {
    appendDeadlineMs: DEFAULT_APPEND_DEADLINE_MS,
    ...(options.onSubscriptionError ? { onSubscriptionError: options.onSubscriptionError } : {}),
  })
  return {
    log,
    async checkReachable(timeoutMs = DEFAULT_PROBE_TIMEOUT_MS) {
      let timer: NodeJS.Timeout | undefined
      const gaveUp = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
      })
      try {
        // The adapter reads `$all` (the projector, the inline hook): the probe asks for exactly that.
        const read = client.readAll({
          direction: FORWARDS,
          fromPosition: START,
          maxCount: 1,
          deadline: timeoutMs,
        })
        await Promise.race([
          (async () => {
            for await (const _ of read) break
          })(),
          gaveUp,
        ])
      } catch (error) {
        await log.close().catch(() => {})
        throw new ConfigError(
          KURRENTDB_URL,
          `${KURRENTDB_URL}: KurrentDB did not answer (${reasonOf(error, url)}). Check that the server runs and that the URL, its credentials and its tls setting are right, or unset EVENT_STORE to keep the log in PostgreSQL.`,
        )
      } finally {
        clearTimeout(timer)
      }
    },
  }
}

/** The error's own words, with the URL cut out should the client have quoted it. */
const reasonOf = (error: unknown, url: string): string => {
  const message = error instanceof Error ? error.message : String(error)
  return message.split(url).join('<KURRENTDB_URL>').split('\n')[0] ?? message
}

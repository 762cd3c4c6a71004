/// Where Tessera's streams live in KurrentDB. One namespace (default `tessera`) holds them all:
/// the aggregates' streams under `<namespace>/`, the unique-claim reservations under
/// `<namespace>.claims/`. The catch-up subscription and `readAll` filter `$all` by the first prefix
/// only, so reservations never reach the projector; a namespace may hold no `.` or `/`, so no
/// namespace's prefix is another's.

import { createHash } from 'node:crypto'

const NAMESPACE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/

export const DEFAULT_NAMESPACE = 'tessera'

export type StreamNames = {
  /** `$all` filter for the aggregates' streams (what `readAll` and the subscription see). */
  readonly eventPrefix: string
  /** `$all` filter for the reservation streams (what an export lists). */
  readonly claimPrefix: string
  eventStream(stream: string): string
  /** The Tessera stream a KurrentDB stream holds, or null for any other stream. */
  tesseraStream(kurrentStream: string): string | null
  /** One reservation stream per (scope, value); the value is hashed so any text makes a name. */
  claimStream(scope: string, value: string): string
}

export const isValidNamespace = (namespace: string): boolean => NAMESPACE.test(namespace)

export const streamNames = (namespace: string = DEFAULT_NAMESPACE): StreamNames => {
  if (!isValidNamespace(namespace))
    throw new Error(
      `KurrentDB namespace "${namespace}" must be 1 to 64 letters, digits, "_" or "-", starting with a letter or digit`,
    )
  const eventPrefix = `${namespace}/`
  const claimPrefix = `${namespace}.claims/`
  return {
    eventPrefix,
    claimPrefix,
    eventStream: (stream) => `${eventPrefix}${stream}`,
    tesseraStream: (kurrentStream) =>
      kurrentStream.startsWith(eventPrefix) ? kurrentStream.slice(eventPrefix.length) : null,
    claimStream: (scope, value) =>
      `${claimPrefix}${createHash('sha256').update(`${scope}\u0000${value}`).digest('hex')}`,
  }
}

/// The feed's cursor: a log position, opaque to clients (base64url of `tx:seq`), so that the
/// position's form may change without breaking a stored cursor's meaning to them.

import { formatPosition, type GlobalPosition, parsePosition } from '../event-store/event-store.js'

export const encodeCursor = (position: GlobalPosition): string =>
  Buffer.from(formatPosition(position), 'utf8').toString('base64url')

/** The position a cursor names; null when it is not one of ours. */
export const decodeCursor = (cursor: string): GlobalPosition | null => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null
  return parsePosition(Buffer.from(cursor, 'base64url').toString('utf8'))
}

/// Whether a failure means the database cannot be reached right now (down, restarting, refusing
/// connections, or the connection was cut), as opposed to a query that is wrong. Such a failure is
/// the service's to wait out: requests answer 503 and the pool reconnects by itself on the next query.

// Node's socket errors on connect or mid-query.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
])
// SQLSTATE: class 08 (connection exception); 57P01-03 (admin shutdown, crash shutdown, cannot connect now).
const SQLSTATE = /^(08...|57P0[123])$/
// node-postgres reports a connection that ends under it by message only.
const MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
]

export const isDatabaseUnavailable = (error: unknown): boolean => {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATE.test(code))) return true
    if (MESSAGES.some((message) => cause instanceof Error && cause.message.includes(message))) return true
    if (cause instanceof AggregateError && cause.errors.some(isDatabaseUnavailable)) return true
    cause = cause.cause
  }
  return false
}

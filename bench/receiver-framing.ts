/// The bench receiver's HTTP/1.1 requests cut from a kept-alive connection's bytes
/// (bench/webhook-receiver.ts). The receiver shares the bench machine's cores with Tessera, which a
/// real receiver would not: node:http's server (a request and a response object, their streams and
/// headers, per delivery) cost it about twice the CPU of reading the bytes here and writing a fixed
/// 204, and that CPU came off the sign-ups the bench compares. Tessera's client sends one request at
/// a time per connection, each with `content-length`; anything else ends the connection.

export type ReceivedRequest = {
  /** The request line's target, e.g. `/hook/3`. */
  path: string
  /** The `webhook-id` header, or '' without one. */
  messageId: string
  body: Buffer
}

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1')

const headerOf = (head: string, name: string): string | undefined =>
  new RegExp(`\\r\\n${name}:[ \\t]*([^\\r]*)`, 'i').exec(head)?.[1]?.trim()

/**
 * Feeds a connection's chunks in, hands out each whole request in order; throws on a request it
 * cannot frame (chunked or no length), after which the connection must be dropped.
 */
export const requestFraming = (onRequest: (request: ReceivedRequest) => void) => {
  let pending: Buffer = Buffer.alloc(0)
  return (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    for (;;) {
      const headEnd = pending.indexOf(HEAD_END)
      if (headEnd < 0) return
      const head = pending.toString('latin1', 0, headEnd)
      const length = Number(headerOf(head, 'content-length') ?? Number.NaN)
      if (!Number.isInteger(length) || length < 0 || headerOf(head, 'transfer-encoding') !== undefined)
        throw new Error('the bench receiver takes requests with a content-length only')
      const bodyStart = headEnd + HEAD_END.length
      if (pending.length < bodyStart + length) return
      onRequest({
        path: head.slice(0, head.indexOf('\r\n')).split(' ')[1] ?? '',
        messageId: headerOf(head, 'webhook-id') ?? '',
        body: pending.subarray(bodyStart, bodyStart + length),
      })
      pending = pending.subarray(bodyStart + length)
    }
  }
}

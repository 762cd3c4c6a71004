import { describe, expect, it } from 'vitest'
import { type ReceivedRequest, requestFraming } from './receiver-framing.js'

const request = (path: string, id: string, body: string) =>
  Buffer.from(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nwebhook-id: ${id}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n${body}`,
  )

const collect = () => {
  const got: Array<Omit<ReceivedRequest, 'body'> & { body: string }> = []
  const feed = requestFraming(({ path, messageId, body }) =>
    got.push({ path, messageId, body: body.toString() }),
  )
  return { got, feed }
}

describe("the bench receiver's framing", () => {
  it('hands out a request only once its whole body is in, however the bytes are cut', () => {
    const bytes = request('/hook/3', 'evt-1', '{"email":"bench-a@example.test","é":1}')
    for (const cut of [1, 10, bytes.indexOf('\r\n\r\n') + 2, bytes.length - 1]) {
      const { got, feed } = collect()
      feed(bytes.subarray(0, cut))
      expect(got).toEqual([])
      feed(bytes.subarray(cut))
      expect(got).toEqual([
        { path: '/hook/3', messageId: 'evt-1', body: '{"email":"bench-a@example.test","é":1}' },
      ])
    }
  })

  it('cuts requests that arrive in one chunk apart, in order, the next one left waiting', () => {
    const { got, feed } = collect()
    const third = request('/hook/0', 'evt-3', 'third')
    feed(
      Buffer.concat([
        request('/hook/1', 'evt-1', 'first'),
        request('/hook/2', 'evt-2', ''),
        third.subarray(0, 5),
      ]),
    )
    expect(got.map((one) => [one.path, one.messageId, one.body])).toEqual([
      ['/hook/1', 'evt-1', 'first'],
      ['/hook/2', 'evt-2', ''],
    ])
    feed(third.subarray(5))
    expect(got.at(-1)).toEqual({ path: '/hook/0', messageId: 'evt-3', body: 'third' })
  })

  it('refuses a request it cannot frame rather than waiting on it', () => {
    const chunked = 'POST /hook/1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n'
    expect(() => collect().feed(Buffer.from(chunked))).toThrow(/content-length/)
    expect(() => collect().feed(Buffer.from('POST /hook/1 HTTP/1.1\r\nHost: x\r\n\r\n'))).toThrow(
      /content-length/,
    )
  })
})

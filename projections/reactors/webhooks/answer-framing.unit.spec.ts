/// An endpoint's answer as its bytes come, cut anywhere: where it ends (so the connection carries
/// the next request, or is dropped), its status, and what is refused.

import { describe, expect, it } from 'vitest'
import { AnswerError, answerReader } from './answer-framing.js'

/** Feeds `text` in pieces of `size` bytes; the reader, and after how many bytes it said the answer ended. */
const read = (text: string, size: number) => {
  const bytes = Buffer.from(text, 'latin1')
  const reader = answerReader()
  let endedAt: number | null = null
  for (let at = 0; at < bytes.length && endedAt === null; at += size)
    if (reader.feed(bytes.subarray(at, at + size))) endedAt = Math.min(at + size, bytes.length)
  return { reader, endedAt, length: bytes.length }
}

const everySplit = (text: string, check: (outcome: ReturnType<typeof read>) => void) => {
  for (const size of [1, 2, 3, 7, 64, 10_000]) check(read(text, size))
}

describe('an endpoint’s answer', () => {
  it('ends after content-length bytes of body, and the connection carries on', () => {
    const text = 'HTTP/1.1 200 OK\r\nContent-Length: 11\r\nContent-Type: text/plain\r\n\r\nhello world'
    everySplit(text, ({ reader, endedAt, length }) => {
      expect(endedAt).toBe(length)
      expect(reader.status).toBe(200)
      expect(reader.reusable).toBe(true)
    })
  })

  it('ends a chunked body after its last chunk and trailers, extensions and all', () => {
    const text =
      'HTTP/1.1 202 Accepted\r\ntransfer-encoding: chunked\r\n\r\n' +
      '5;note=x\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nx-trailer: 1\r\n\r\n'
    everySplit(text, ({ reader, endedAt, length }) => {
      expect(endedAt).toBe(length)
      expect(reader.status).toBe(202)
      expect(reader.reusable).toBe(true)
    })
  })

  it('skips an informational answer for the final one', () => {
    const text = 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n'
    everySplit(text, ({ reader, endedAt, length }) => {
      expect(endedAt).toBe(length)
      expect(reader.status).toBe(204)
    })
  })

  it('reads a body without length until the connection closes, and does not reuse it', () => {
    const { reader, endedAt } = read('HTTP/1.1 500 Oops\r\n\r\nsomething broke', 4)
    expect(endedAt).toBeNull()
    expect(reader.status).toBe(500)
    expect(reader.closed()).toBe(true)
    expect(reader.reusable).toBe(false)
  })

  it('does not reuse a connection the endpoint closes, an HTTP/1.0 one, or one with bytes past the answer', () => {
    for (const text of [
      'HTTP/1.1 200 OK\r\nconnection: Close\r\ncontent-length: 0\r\n\r\n',
      'HTTP/1.0 200 OK\r\ncontent-length: 0\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n',
    ]) {
      const { reader, endedAt } = read(text, 10_000)
      expect(endedAt).not.toBeNull()
      expect(reader.status).toBe(200)
      expect(reader.reusable).toBe(false)
    }
  })

  it('fails an answer cut short: the connection closed before its length or last chunk came', () => {
    for (const text of [
      'HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nshort',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhel',
      'HTTP/1.1 200 OK\r\ncontent-le',
    ]) {
      const { reader, endedAt } = read(text, 3)
      expect(endedAt).toBeNull()
      expect(reader.closed()).toBe(false)
    }
  })

  it('refuses a malformed status line, length or chunk size, and a head or chunk line too large to be an answer', () => {
    for (const text of [
      'SMTP ready\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\nok',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nokXX\r\n',
      `HTTP/1.1 200 OK\r\nx-padding: ${'a'.repeat(20_000)}\r\n\r\n`,
      `HTTP/1.1 200 OK\r\nx-padding: ${'a'.repeat(20_000)}`,
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1;${'x'.repeat(2_000)}\r\nx\r\n0\r\n\r\n`,
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1;${'x'.repeat(2_000)}`,
    ])
      expect(() => read(text, 10_000), text.slice(0, 60)).toThrow(AnswerError)
  })

  it('counts a body through without keeping it', () => {
    const reader = answerReader()
    expect(reader.feed(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 50000000\r\n\r\n'))).toBe(false)
    const megabyte = Buffer.alloc(1_000_000, 'x')
    for (let sent = 0; sent < 49; sent += 1) expect(reader.feed(megabyte)).toBe(false)
    expect(reader.feed(megabyte)).toBe(true)
    expect(reader.reusable).toBe(true)
  })
})

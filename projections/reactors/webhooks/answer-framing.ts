/// An endpoint's HTTP/1.1 answer read off its connection's bytes (webhook-connections.ts): its status,
/// whether it has ended, and whether the connection may carry the next request. The body is counted
/// through and dropped, never kept; informational answers (1xx) before the final one are skipped. A
/// head over MAX_HEAD_BYTES, a malformed status line or length, and bytes past the answer's end are
/// errors or end the connection: what the endpoint sends is not trusted.

const MAX_HEAD_BYTES = 16 * 1024
const MAX_LINE_BYTES = 1024
const CRLF = Buffer.from('\r\n', 'latin1')
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1')
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: |\r|$)/

export class AnswerError extends Error {
  override readonly name = 'AnswerError'
}

type Body =
  | { kind: 'none' }
  | { kind: 'length'; left: number }
  /** Chunked: a size line, `left` bytes of a chunk, the CRLF after them, or the trailer lines after the last. */
  | { kind: 'chunked'; at: 'size' | 'data' | 'data-end' | 'trailer'; left: number }
  | { kind: 'until-close' }

export type AnswerReader = {
  /** Takes the next bytes; true once the answer has ended (later bytes make it not `reusable`). */
  feed(chunk: Buffer): boolean
  /** The connection closed: true if that ends the answer (a body read until close). */
  closed(): boolean
  /** The final answer's status, once its head is in. */
  readonly status: number | null
  /** The connection may carry another request once the answer has ended. */
  readonly reusable: boolean
  /** Any byte of an answer arrived (a kept-alive connection that fails before is sent on anew). */
  readonly started: boolean
}

const headerValues = (head: string) => {
  let length: number | null = null
  let chunked = false
  let close = false
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':')
    if (colon <= 0) throw new AnswerError('malformed answer header')
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line
      .slice(colon + 1)
      .trim()
      .toLowerCase()
    if (name === 'content-length') {
      if (!/^\d{1,15}$/.test(value) || (length !== null && length !== Number(value)))
        throw new AnswerError('malformed content-length in the answer')
      length = Number(value)
    } else if (name === 'transfer-encoding') chunked = value.split(',').at(-1)?.trim() === 'chunked'
    else if (name === 'connection') close ||= value.split(',').some((token) => token.trim() === 'close')
  }
  return { length, chunked, close }
}

export const answerReader = (): AnswerReader => {
  let pending: Buffer | null = null
  let status: number | null = null
  let body: Body | null = null
  let reusable = true
  let started = false
  let ended = false

  /**
   * Where `delimiter` starts in `pending`, or -1 while it has not come yet; what comes before it may
   * be `max` bytes at most (the endpoint is not trusted to end its head or line at all).
   */
  const boundedEnd = (delimiter: Buffer, max: number, tooLong: string): number => {
    const buffer = pending as Buffer
    const end = buffer.indexOf(delimiter)
    if ((end < 0 ? buffer.length : end) > max) throw new AnswerError(tooLong)
    return end
  }

  /** Reads a head from `pending`; false when it is not all in yet. */
  const readHead = (): boolean => {
    const buffer = pending as Buffer
    const end = boundedEnd(HEAD_END, MAX_HEAD_BYTES, 'answer head too large')
    if (end < 0) return false
    const head = buffer.toString('latin1', 0, end)
    pending = buffer.subarray(end + HEAD_END.length)
    const line = STATUS_LINE.exec(head)
    if (!line) throw new AnswerError('malformed answer status line')
    const code = Number(line[2])
    const values = headerValues(head)
    if (code < 200 && code !== 101) return true // informational: the final answer follows
    status = code
    if (line[1] === '0' || values.close || code === 101) reusable = false
    if (code === 101 || code === 204 || code === 304) body = { kind: 'none' }
    else if (values.chunked) body = { kind: 'chunked', at: 'size', left: 0 }
    else if (values.length !== null) body = { kind: 'length', left: values.length }
    else body = { kind: 'until-close' }
    return true
  }

  /** One line of a chunked body (a size or a trailer), or null when it is not all in yet. */
  const takeLine = (): string | null => {
    const buffer = pending as Buffer
    const end = boundedEnd(CRLF, MAX_LINE_BYTES, 'chunked answer line too long')
    if (end < 0) return null
    pending = buffer.subarray(end + CRLF.length)
    return buffer.toString('latin1', 0, end)
  }

  /** Skips `left` bytes of `pending`; how many are still to come. */
  const skip = (left: number): number => {
    const buffer = pending as Buffer
    const taken = Math.min(left, buffer.length)
    pending = buffer.subarray(taken)
    return left - taken
  }

  /** Reads the chunked body on; true at its end. */
  const readChunked = (chunked: Body & { kind: 'chunked' }): boolean => {
    for (;;) {
      if (chunked.at === 'data') {
        chunked.left = skip(chunked.left)
        if (chunked.left > 0) return false
        chunked.at = 'data-end'
      }
      const line = takeLine()
      if (line === null) return false
      if (chunked.at === 'data-end') {
        if (line !== '') throw new AnswerError('malformed chunk end in the answer')
        chunked.at = 'size'
      } else if (chunked.at === 'trailer') {
        if (line === '') return true
      } else {
        const size = /^[0-9a-fA-F]{1,12}(?=[ \t;]|$)/.exec(line)?.[0]
        if (size === undefined) throw new AnswerError('malformed chunk size in the answer')
        chunked.left = Number.parseInt(size, 16)
        chunked.at = chunked.left === 0 ? 'trailer' : 'data'
      }
    }
  }

  const readBody = (): boolean => {
    const current = body as Body
    if (current.kind === 'none') return true
    if (current.kind === 'until-close') {
      pending = null
      return false
    }
    if (current.kind === 'length') {
      current.left = skip(current.left)
      return current.left === 0
    }
    return readChunked(current)
  }

  return {
    feed(chunk) {
      started = true
      if (ended) {
        reusable = false
        return true
      }
      pending = pending && pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk
      while (body === null) if (pending.length === 0 || !readHead()) return false
      if (!readBody()) return false
      ended = true
      if (pending !== null && pending.length > 0) reusable = false
      pending = null
      return true
    },
    closed() {
      reusable = false
      if (!ended && body?.kind === 'until-close') ended = true
      return ended
    },
    get status() {
      return status
    },
    get reusable() {
      return reusable
    },
    get started() {
      return started
    },
  }
}

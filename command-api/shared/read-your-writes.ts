/// Read-your-writes with one bound per request. Every command a request makes waits for the read
/// models within what is left of the request's bound (a reset that revokes N sessions waits at most
/// once the bound, not N times), and a wait that runs out marks the request as behind instead of
/// throwing: the use case goes on, so every event it has to append (each revocation of a reset) is
/// appended. The HTTP edge then answers 503 READ_MODELS_BEHIND, whatever the handler answered: a
/// 200 would claim an effect nobody can see yet, a 422 ("failed to create user") would deny one
/// that happened.

import type { onSendHookHandler } from 'fastify'
import { AUTH_ERRORS } from '../../domain/errors.js'
import type { GlobalPosition } from '../../infra/event-store/event-store.js'

export type ReadYourWrites = {
  /** Waits until the read models include `position`, within what is left of the request's bound. */
  wait(requestId: string, position: GlobalPosition): Promise<boolean>
  /** Ends the request's bookkeeping: true when one of its writes is not visible yet. */
  settle(requestId: string): boolean
}

export type ReadYourWritesOptions = {
  projector: { waitFor(position: GlobalPosition, timeoutMs: number): Promise<boolean> }
  /** The bound of one request, from its first command on. */
  boundMs?: number
  now?: () => number
}

/** Requests that never settle (a dropped connection) are forgotten this long after their bound. */
const FORGET_AFTER_MS = 60_000

export const createReadYourWrites = ({
  projector,
  boundMs = 5000,
  now = Date.now,
}: ReadYourWritesOptions): ReadYourWrites => {
  const requests = new Map<string, { deadline: number; behind: boolean }>()
  const forgetStale = (at: number) => {
    if (requests.size < 1000) return
    for (const [id, request] of requests) if (request.deadline + FORGET_AFTER_MS < at) requests.delete(id)
  }
  return {
    async wait(requestId, position) {
      const at = now()
      let request = requests.get(requestId)
      if (!request) {
        forgetStale(at)
        request = { deadline: at + boundMs, behind: false }
        requests.set(requestId, request)
      }
      // Once behind, later commands of the request only check: the answer is a 503 anyway.
      const left = request.behind ? 0 : request.deadline - at
      const visible = await projector.waitFor(position, Math.max(0, left))
      if (!visible) request.behind = true
      return visible
    },
    settle(requestId) {
      const request = requests.get(requestId)
      requests.delete(requestId)
      return request?.behind ?? false
    },
  }
}

/** Fastify `onSend`: a request one of whose commands is not visible yet answers 503. A callback
 *  hook: it runs on every answer, and an async one costs a promise and a microtask turn each. */
export const readYourWritesHook =
  (readYourWrites: ReadYourWrites): onSendHookHandler<unknown> =>
  (request, reply, payload, done) => {
    if (!readYourWrites.settle(request.id)) return done(null, payload)
    const { status, code, message } = AUTH_ERRORS.READ_MODELS_BEHIND
    request.log.warn({ answered: reply.statusCode }, 'read models behind a command; answering 503')
    reply.code(status).header('content-type', 'application/json; charset=utf-8').header('retry-after', '1')
    done(null, JSON.stringify({ code, message }))
  }

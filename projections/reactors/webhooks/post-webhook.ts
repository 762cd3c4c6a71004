/// One delivery attempt: a POST to the endpoint's URL, connected to the address checked for it
/// (endpoint-targets.ts, address-guard.ts), within 10 seconds, without following redirects (a 3xx
/// is an answer like any other non-2xx), and without keeping the answer's body (it is read and
/// dropped).

import type http from 'node:http'
import type { AddressPolicy } from '../../../infra/webhooks/address-guard.js'
import { type AgentPool, ATTEMPT_TIMEOUT_MS, type Target } from './endpoint-targets.js'

export type AttemptResult = { ok: boolean; status: number | null; error: string | null; latencyMs: number }

export const postWebhook = async (
  policy: AddressPolicy,
  url: string,
  headers: Record<string, string>,
  body: string,
  agents: AgentPool,
  timeoutMs = ATTEMPT_TIMEOUT_MS,
): Promise<AttemptResult> => {
  const started = performance.now()
  const done = (status: number | null, error: string | null): AttemptResult => ({
    ok: status !== null && status >= 200 && status < 300,
    status,
    error,
    latencyMs: Math.round(performance.now() - started),
  })
  let target: Target
  try {
    const found = agents.targetFor(policy, url)
    target = found instanceof Promise ? await found : found
  } catch (error) {
    return done(null, messageOf(error))
  }
  const listed = [...target.headers, 'content-length', String(Buffer.byteLength(body))]
  for (const name in headers) listed.push(name, headers[name] as string)
  const options: http.RequestOptions = { ...target.options, headers: listed }
  try {
    // A kept-alive connection the endpoint closed as the request went out fails before the endpoint
    // saw anything: sent again once, on a new connection to the same address.
    const status = await send(target, options, body, timeoutMs).catch((error: unknown) => {
      if (!(error instanceof ReusedSocketError)) throw error
      return send(target, options, body, timeoutMs)
    })
    return done(status, null)
  } catch (error) {
    // No answer: the name may have moved; the next attempt resolves it again.
    agents.forget(url)
    return done(null, messageOf(error))
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message.slice(0, 500) : String(error))

class ReusedSocketError extends Error {}

/**
 * One request. The attempt's bound is one timer from the start to the answer's end (an endpoint that
 * trickles its answer does not stretch it); the agent's socket timeout only closes idle sockets.
 */
const send = (
  target: Target,
  options: http.RequestOptions,
  body: string,
  timeoutMs: number,
): Promise<number> =>
  new Promise((resolve, reject) => {
    const request = target.client.request(options, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
      response.on('error', reject)
    })
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    request.on('close', () => clearTimeout(timer))
    request.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        request.reusedSocket && error.code === 'ECONNRESET' ? new ReusedSocketError(error.message) : error,
      ),
    )
    request.end(body)
  })

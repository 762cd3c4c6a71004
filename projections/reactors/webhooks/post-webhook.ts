/// One delivery attempt: a POST to the endpoint's URL, connected to the address checked for it
/// (endpoint-targets.ts, address-guard.ts), within 10 seconds, without following redirects (a 3xx
/// is an answer like any other non-2xx), and without keeping the answer's body (it is read and
/// dropped: answer-framing.ts).

import type { AddressPolicy } from '../../../infra/webhooks/address-guard.js'
import { ATTEMPT_TIMEOUT_MS, type EndpointTargets, type Target } from './endpoint-targets.js'

export type AttemptResult = { ok: boolean; status: number | null; error: string | null; latencyMs: number }

/** A header line may not be ended or split by what it carries. */
const LINE_BREAK = /[\r\n]/

export const postWebhook = async (
  policy: AddressPolicy,
  url: string,
  headers: Record<string, string>,
  body: string,
  endpointTargets: EndpointTargets,
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
    const found = endpointTargets.targetFor(policy, url)
    target = found instanceof Promise ? await found : found
  } catch (error) {
    return done(null, messageOf(error))
  }
  // Head and body in one string: written at once (webhook-connections.ts).
  let request = `${target.head}content-length: ${Buffer.byteLength(body)}\r\n`
  for (const name in headers) {
    const value = headers[name] as string
    if (LINE_BREAK.test(name) || LINE_BREAK.test(value))
      return done(null, `header ${name} holds a line break`)
    request += `${name}: ${value}\r\n`
  }
  request += `\r\n${body}`
  try {
    return done(await endpointTargets.send(target, request, timeoutMs), null)
  } catch (error) {
    // No answer: the name may have moved; the next attempt resolves it again.
    endpointTargets.forget(url)
    return done(null, messageOf(error))
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message.slice(0, 500) : String(error))

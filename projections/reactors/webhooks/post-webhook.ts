/// One delivery attempt: a POST to the endpoint's URL, connected to the address resolved for this
/// attempt (address-guard.ts), within 10 seconds, without following redirects (a 3xx is an answer
/// like any other non-2xx), and without keeping the answer's body (it is read and dropped).

import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { type AddressPolicy, resolveTarget } from '../../../infra/webhooks/address-guard.js'

export const ATTEMPT_TIMEOUT_MS = 10_000
const SOCKETS_PER_ADDRESS = 64

/**
 * Keep-alive agents per protocol and pinned address: a connection is reused only to the same address.
 * Each endpoint has one request in flight at a time, and several endpoints often share a host (one
 * application's endpoints, a receiving service's): enough sockets that they never queue behind each
 * other (4 made every endpoint past the fourth on one address wait for a free connection).
 */
export type AgentPool = { agentFor(protocol: string, address: string): http.Agent; close(): void }

export const createAgentPool = (): AgentPool => {
  const agents = new Map<string, http.Agent>()
  return {
    agentFor(protocol, address) {
      const key = `${protocol}|${address}`
      let agent = agents.get(key)
      if (!agent) {
        const options = { keepAlive: true, maxSockets: SOCKETS_PER_ADDRESS, timeout: ATTEMPT_TIMEOUT_MS }
        agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options)
        agents.set(key, agent)
      }
      return agent
    },
    close() {
      for (const agent of agents.values()) agent.destroy()
      agents.clear()
    },
  }
}

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
  try {
    const target = new URL(url)
    const pinned = await resolveTarget(policy, target)
    const agent = agents.agentFor(target.protocol, pinned.address)
    // A kept-alive connection the endpoint closed as the request went out fails before the endpoint
    // saw anything: sent again once, on a new connection to the same address.
    const status = await send(target, pinned, agent, headers, body, timeoutMs).catch((error: unknown) => {
      if (!(error instanceof ReusedSocketError)) throw error
      return send(target, pinned, agent, headers, body, timeoutMs)
    })
    return done(status, null)
  } catch (error) {
    return done(null, error instanceof Error ? error.message.slice(0, 500) : String(error))
  }
}

class ReusedSocketError extends Error {}

const send = (
  target: URL,
  pinned: { address: string; family: 4 | 6 },
  agent: http.Agent,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<number> =>
  new Promise((resolve, reject) => {
    // Whatever name the URL holds, the socket goes to the address checked above (TLS still checks
    // the certificate against the name).
    const lookup: LookupFunction = (_host, options, callback) => {
      if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }])
      else callback(null, pinned.address, pinned.family)
    }
    const client = target.protocol === 'https:' ? https : http
    const request = client.request(
      target,
      {
        method: 'POST',
        lookup,
        agent,
        timeout: timeoutMs,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode ?? 0))
        response.on('error', reject)
      },
    )
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    request.on('close', () => clearTimeout(timer))
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    request.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        request.reusedSocket && error.code === 'ECONNRESET' ? new ReusedSocketError(error.message) : error,
      ),
    )
    request.end(body)
  })

/// Where an endpoint's attempts connect: its URL parsed, its host resolved and checked against the
/// address policy (address-guard.ts), and the request options built on them, kept for TARGET_TTL_MS
/// and reused by every attempt in that time. Parsing, resolving and building them on each attempt
/// was a fifth of what a delivery cost the event loop (issue 34). What keeps a kept target safe:
/// - it is found by the URL's exact text and the policy object: a changed URL or policy is
///   resolved and checked afresh, never answered from an entry made for another;
/// - its connections go only to the address that was checked (the pinned `lookup`, and an agent per
///   address: a kept-alive socket is reused only for the same address);
/// - a name is resolved again after TARGET_TTL_MS, and at once after an attempt that got no answer
///   (`forget`), so a name moved elsewhere is followed as soon as the old address stops answering.
/// A refused address is never kept: every attempt to it is checked, and refused, again.

import http from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { urlToHttpOptions } from 'node:url'
import { type AddressPolicy, resolveTarget } from '../../../infra/webhooks/address-guard.js'

export const ATTEMPT_TIMEOUT_MS = 10_000
const SOCKETS_PER_ADDRESS = 64
/** How long a resolved and checked address is used before the name is resolved again. */
export const TARGET_TTL_MS = 30_000
const MAX_TARGETS = 10_000

/**
 * What an attempt needs to send to an endpoint: the module, the options but for the headers, and
 * the headers every request to it carries (`host`, `authorization` for a URL with credentials,
 * `content-type`), as name, value, name, value…: a request given its headers as such a list has
 * them written as they are, where an object has each one set, checked and looked up again
 * (post-webhook.ts). Node adds neither `host` nor `authorization` to such a list itself.
 */
export type Target = {
  client: typeof http | typeof https
  options: http.RequestOptions
  headers: readonly string[]
}

/**
 * Keep-alive agents per protocol and pinned address, and the endpoints' targets. Each endpoint has
 * one request in flight at a time, and several endpoints often share a host (one application's
 * endpoints, a receiving service's): enough sockets per address that they never queue behind each
 * other (4 made every endpoint past the fourth on one address wait for a free connection).
 */
export type AgentPool = {
  /**
   * The target for `url` under `policy`: the kept one as it is, or one resolved now (a promise that
   * rejects when it may not be used). Most attempts find theirs kept and go on without a wait.
   */
  targetFor(policy: AddressPolicy, url: string): Target | Promise<Target>
  /** The next attempt at `url` resolves its host again (this one got no answer). */
  forget(url: string): void
  close(): void
}

export type AgentPoolOptions = {
  resolve?: typeof resolveTarget
  now?: () => number
  ttlMs?: number
}

type Kept = { policy: AddressPolicy; target: Target; until: number }

export const createAgentPool = ({
  resolve = resolveTarget,
  now = () => performance.now(),
  ttlMs = TARGET_TTL_MS,
}: AgentPoolOptions = {}): AgentPool => {
  const agents = new Map<string, http.Agent>()
  const targets = new Map<string, Kept>()

  const agentFor = (protocol: string, address: string) => {
    const key = `${protocol}|${address}`
    let agent = agents.get(key)
    if (!agent) {
      // The agent's timeout closes idle kept-alive sockets; the attempt's own bound is post-webhook.ts's timer.
      const options = { keepAlive: true, maxSockets: SOCKETS_PER_ADDRESS, timeout: ATTEMPT_TIMEOUT_MS }
      agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options)
      agents.set(key, agent)
    }
    return agent
  }

  const build = async (policy: AddressPolicy, url: string): Promise<Target> => {
    const parsed = new URL(url)
    const pinned = await resolve(policy, parsed)
    // Whatever name the URL holds, the socket goes to the address checked above (TLS still checks
    // the certificate against the name).
    const lookup: LookupFunction = (_host, options, callback) => {
      if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }])
      else callback(null, pinned.address, pinned.family)
    }
    const { protocol, hostname, port, path, auth } = urlToHttpOptions(parsed)
    const options: https.RequestOptions = {
      protocol,
      hostname,
      port,
      path,
      // What the agent would work out from the host on every request: the name TLS checks (none for
      // an address).
      ...(protocol === 'https:' ? { servername: isIP(hostname ?? '') ? '' : (hostname ?? '') } : {}),
      method: 'POST',
      lookup,
      agent: agentFor(parsed.protocol, pinned.address),
    }
    // The URL's host (brackets and a port other than the scheme's included), as Node writes it.
    const headers = ['host', parsed.host, 'content-type', 'application/json']
    if (auth) headers.push('authorization', `Basic ${Buffer.from(auth).toString('base64')}`)
    return { client: protocol === 'https:' ? https : http, options, headers }
  }

  return {
    targetFor(policy, url) {
      const kept = targets.get(url)
      if (kept && kept.policy === policy && now() < kept.until) return kept.target
      targets.delete(url)
      return build(policy, url).then((target) => {
        if (targets.size >= MAX_TARGETS) targets.clear()
        targets.set(url, { policy, target, until: now() + ttlMs })
        return target
      })
    },
    forget(url) {
      targets.delete(url)
    },
    close() {
      for (const agent of agents.values()) agent.destroy()
      agents.clear()
      targets.clear()
    },
  }
}

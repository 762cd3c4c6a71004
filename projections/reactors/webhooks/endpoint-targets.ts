/// Where an endpoint's attempts connect: its URL parsed, its host resolved and checked against the
/// address policy (address-guard.ts), and the requests' head built on them, kept for TARGET_TTL_MS
/// and reused by every attempt in that time. Parsing, resolving and building them on each attempt
/// was a fifth of what a delivery cost the event loop (issue 34). What keeps a kept target safe:
/// - it is found by the URL's exact text and the policy object: a changed URL or policy is
///   resolved and checked afresh, never answered from an entry made for another;
/// - its connections go only to the address that was checked (the pinned `lookup`), and a kept-alive
///   connection is reused only for the same protocol, address, port and name (webhook-connections.ts);
/// - a name is resolved again after TARGET_TTL_MS, and at once after an attempt that got no answer
///   (`forget`), so a name moved elsewhere is followed as soon as the old address stops answering.
/// A refused address is never kept: every attempt to it is checked, and refused, again.

import type { LookupFunction } from 'node:net'
import { isIP } from 'node:net'
import { urlToHttpOptions } from 'node:url'
import { type AddressPolicy, resolveTarget } from '../../../infra/webhooks/address-guard.js'
import { type ConnectionTarget, createConnections } from './webhook-connections.js'

export const ATTEMPT_TIMEOUT_MS = 10_000
/** How long a resolved and checked address is used before the name is resolved again. */
export const TARGET_TTL_MS = 30_000
const MAX_TARGETS = 10_000

/**
 * What an attempt needs to send to an endpoint: where to connect (webhook-connections.ts), and the
 * start of every request's head to it: the request line, `host` (as the URL names it, a port other
 * than the scheme's included), `connection`, `content-type` and `authorization` for a URL with
 * credentials. The URL parser leaves no CR or LF in the path or host.
 */
export type Target = { connection: ConnectionTarget; head: string }

/**
 * The endpoints' targets and the kept-alive connections to them. Each endpoint has one request in
 * flight at a time, and several endpoints often share a host (one application's endpoints, a
 * receiving service's): each request takes an idle connection to its target's address, or opens
 * one, never waiting for another's.
 */
export type EndpointTargets = {
  /**
   * The target for `url` under `policy`: the kept one as it is, or one resolved now (a promise that
   * rejects when it may not be used). Most attempts find theirs kept and go on without a wait.
   */
  targetFor(policy: AddressPolicy, url: string): Target | Promise<Target>
  /** The next attempt at `url` resolves its host again (this one got no answer). */
  forget(url: string): void
  /** Sends a request (head and body) to the target; the answer's status once it has ended. */
  send(target: Target, request: string, timeoutMs: number): Promise<number>
  close(): void
}

export type EndpointTargetsOptions = {
  resolve?: typeof resolveTarget
  now?: () => number
  ttlMs?: number
}

type Kept = { policy: AddressPolicy; target: Target; until: number }

export const createEndpointTargets = ({
  resolve = resolveTarget,
  now = () => performance.now(),
  ttlMs = TARGET_TTL_MS,
}: EndpointTargetsOptions = {}): EndpointTargets => {
  const connections = createConnections()
  const targets = new Map<string, Kept>()

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
    const secure = protocol === 'https:'
    const host = hostname ?? ''
    const servername = secure && !isIP(host) ? host : ''
    const portNumber = Number(port ?? (secure ? 443 : 80))
    let head = `POST ${path} HTTP/1.1\r\nhost: ${parsed.host}\r\nconnection: keep-alive\r\n`
    head += 'content-type: application/json\r\n'
    if (auth) head += `authorization: Basic ${Buffer.from(auth).toString('base64')}\r\n`
    const key = `${protocol}|${pinned.address}|${portNumber}|${host}|${servername}`
    return { connection: { secure, host, port: portNumber, servername, lookup, key }, head }
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
    send: (target, request, timeoutMs) => connections.send(target.connection, request, timeoutMs),
    close() {
      connections.close()
      targets.clear()
    },
  }
}

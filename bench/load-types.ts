/// What a load scenario is and what it measures, closed loop (bench/load.ts) and open loop
/// (bench/open-loop.ts) alike. The types live apart from both runners so that neither imports the other.

export type Kind =
  | 'get-session'
  | 'sign-in'
  | 'sign-up'
  | 'list-sessions'
  | 'token'
  | 'api-key/verify'
  | 'admin/list-users'
  | 'organization/list'
  | 'get-full-organization'
  | 'organization/has-permission'
  | 'two-factor/sign-in'
  | 'two-factor/verify-totp'
  | 'passkey/generate-authenticate-options'
  | 'passkey/verify-authentication'
  | 'scim/Users filter'
  | 'scim/Users list'
  | 'scim/Users create'
  | 'oauth2/token'
  | 'oauth2/introspect'
  | 'oauth2/userinfo'
  | 'update-user'
  | 'webhook delivery'
  | 'webhook replay'

/** One request to send and how to tell that its answer is right. */
export type Shot = {
  kind: Kind
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  body?: string
  /** A backend's call over the server API: no browser's `Origin` (which the server key refuses). */
  fromServer?: true
  /** True when a 2xx answer carries what it should (e.g. a session, not `null`). */
  isCorrect(body: string, headers: Record<string, string>): boolean
}

/** Closed loop: each connection sends its next request when the last one is answered. */
export type ClosedLoopSpec = {
  name: string
  connections: number
  durationSeconds: number
  warmupSeconds: number
  /**
   * Measured windows per server (1 when absent), which server goes first alternating from one to
   * the next (A B B A …), merged into one result (bench/rounds.ts).
   */
  rounds?: number
  next(): Shot
}

/**
 * A closed-loop scenario (this module), an open-loop one (`arrivals`, bench/open-loop.ts), or one
 * that drives and measures itself (`run`, e.g. webhook deliveries, bench/webhooks.ts).
 */
export type ScenarioSpec = ClosedLoopSpec | OpenLoopSpec | SelfDrivenSpec

export type SelfDrivenSpec = {
  name: string
  durationSeconds: number
  warmupSeconds: number
  run(baseUrl: string, window: MeasureWindow): Promise<ScenarioResult>
}

export type Timing = Pick<ScenarioSpec, 'durationSeconds' | 'warmupSeconds'>

export type KindStats = {
  /** Answers completed inside the measured window. */
  requests: number
  perSecond: number
  /** Latencies of requests sent inside the window: NaN when none was answered (null in JSON). */
  p50Ms: number
  p99Ms: number
  /** The mean latency: with the rate, how many were waiting at once on average (Little's law). */
  meanMs: number
  maxMs: number
  non2xx: number
  /** 2xx answers whose body was wrong. */
  incorrect: number
  /** The first answer that was not right (status and the start of its body), to say why. */
  firstFailure?: string
}

export type ScenarioResult = {
  name: string
  /** Closed loop: the connections; open loop: the most requests that were in flight at once. */
  connections: number
  seconds: number
  /** Connection errors and timeouts. */
  errors: number
  byKind: Partial<Record<Kind, KindStats>>
  /** Open loop only: what was offered, and whether the load generator kept up. */
  openLoop?: OpenLoopFacts
}

/**
 * `sentAt`: when the request went out (open loop: when it was scheduled to); `ms`: its latency
 * (autocannon's, from the write of the request to the last byte of the answer; open loop: from
 * `sentAt`).
 */
export type Answer = {
  kind: Kind
  status: number
  correct: boolean
  sentAt: number
  doneAt: number
  ms: number
}

export type MeasureWindow = { onStart(): void; onEnd(): void }

/** Requests from `next` arriving `perSecond` on average, at random (exponential gaps). */
export type ArrivalStream = { perSecond: number; next(): Shot }

export type OpenLoopSpec = {
  name: string
  /** Each stream's requests arrive at its own rate, independently of answers and of each other. */
  arrivals: readonly ArrivalStream[]
  durationSeconds: number
  warmupSeconds: number
}

export type OpenLoopFacts = {
  /** Requests per second scheduled inside the window, by kind (near the streams' rates). */
  offeredPerSecond: Partial<Record<Kind, number>>
  /** Requests that found every connection busy and waited for one; the wait counts in their latency. */
  waitedForConnection: number
  /** How late the load generator sent the window's requests (p99), which their latencies include. */
  sendLagP99Ms: number
}

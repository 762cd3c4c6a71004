/// Drives a scenario open-loop: requests arrive at fixed rates whatever the server does, and each
/// latency runs from the request's scheduled arrival. A closed loop (bench/load.ts) lets a slow
/// answer hold back the next request on its connection, so a server that stalls is offered less
/// and its queue never shows (coordinated omission); here both servers get the same arrivals (a
/// seeded Poisson schedule) and a stall shows as the latencies of everything that waited behind it.

import { Agent, type IncomingHttpHeaders, request } from 'node:http'
import {
  type Answer,
  failureOf,
  headersOf,
  type Kind,
  type KindStats,
  kindStats,
  type MeasureWindow,
  percentile,
  REQUEST_TIMEOUT_SECONDS,
  type ScenarioResult,
  type Shot,
  TAIL_SECONDS,
} from './load.js'

import type { OpenLoopSpec } from './load-types.js'

export type { ArrivalStream, OpenLoopFacts, OpenLoopSpec } from './load-types.js'

/** One request of the schedule: when, in ms after the start, and from which stream. */
export type Arrival = { at: number; stream: number }

/** What became of one request; no `answer` when it failed or timed out. */
export type Outcome = {
  kind: Kind
  scheduledAt: number
  doneAt: number
  answer?: { status: number; correct: boolean }
  timedOut?: true
}

// Enough that the client never queues at these rates: 150/s waiting 1 s each is 150 in flight.
const MAX_CONNECTIONS = 256
const TIMEOUT_MS = REQUEST_TIMEOUT_SECONDS * 1000

/** A reproducible [0, 1) generator (mulberry32 over the seed's FNV-1a hash). */
export const seededRandom = (seed: string): (() => number) => {
  let state = 2166136261
  for (const char of seed) state = Math.imul(state ^ (char.codePointAt(0) ?? 0), 16777619)
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Poisson arrivals of each rate over `seconds`, merged in time order: exponential gaps with mean
 * 1/rate, so arrivals are independent of each other, as users' are.
 */
export const arrivalSchedule = (
  rates: readonly number[],
  seconds: number,
  random: () => number,
): Arrival[] => {
  const schedule: Arrival[] = []
  rates.forEach((perSecond, stream) => {
    if (perSecond <= 0) return
    const gap = () => (-Math.log(1 - random()) / perSecond) * 1000
    for (let at = gap(); at < seconds * 1000; at += gap()) schedule.push({ at, stream })
  })
  return schedule.sort((a, b) => a.at - b.at)
}

/**
 * The figures of a run from its outcomes and its window [from, to): throughput counts answers
 * completed inside the window; latencies are those of requests scheduled inside it, from their
 * scheduled time, a timeout counting as the time waited; a request scheduled inside it that got no
 * answer is an error.
 */
export const summarize = (
  outcomes: readonly Outcome[],
  window: { from: number; to: number },
  failures: ReadonlyMap<Kind, string>,
): Pick<ScenarioResult, 'byKind' | 'errors'> & { offeredPerSecond: Partial<Record<Kind, number>> } => {
  const seconds = (window.to - window.from) / 1000
  const inWindow = (at: number) => at >= window.from && at < window.to
  const byKind: Partial<Record<Kind, KindStats>> = {}
  const offeredPerSecond: Partial<Record<Kind, number>> = {}
  for (const kind of new Set(outcomes.map((o) => o.kind))) {
    const ofKind = outcomes.filter((o) => o.kind === kind)
    const completed = ofKind.flatMap((o): Answer[] =>
      o.answer && inWindow(o.doneAt)
        ? [{ kind, ...o.answer, sentAt: o.scheduledAt, doneAt: o.doneAt, ms: o.doneAt - o.scheduledAt }]
        : [],
    )
    const scheduled = ofKind.filter((o) => inWindow(o.scheduledAt))
    const latencies = scheduled.filter((o) => o.answer || o.timedOut).map((o) => o.doneAt - o.scheduledAt)
    offeredPerSecond[kind] = scheduled.length / seconds
    if (completed.length > 0 || latencies.length > 0)
      byKind[kind] = kindStats(latencies, completed, seconds, failures.get(kind))
  }
  const errors = outcomes.filter((o) => inWindow(o.scheduledAt) && !o.answer).length
  return { byKind, errors, offeredPerSecond }
}

const flatHeaders = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]],
    ),
  )

type Reply = { status: number; body: string; headers: Record<string, string> }

/**
 * Sends one shot; rejects with a TimeoutError when `timeoutMs` passes without the full answer, or
 * with the connection's error. Whatever settles first wins.
 */
const send = (agent: Agent, baseUrl: string, shot: Shot, timeoutMs: number): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const url = new URL(shot.path, baseUrl)
    const headers = headersOf(shot, url.origin)
    if (shot.body !== undefined) headers['content-length'] = String(Buffer.byteLength(shot.body))
    const outgoing = request(url, { method: shot.method, headers, agent }, (incoming) => {
      const chunks: Buffer[] = []
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
      incoming.on('error', reject)
      incoming.on('close', () => {
        if (!incoming.complete) reject(new Error('the connection closed in the middle of the answer'))
      })
      incoming.on('end', () =>
        resolve({
          status: incoming.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          headers: flatHeaders(incoming.headers),
        }),
      )
    })
    const timer = setTimeout(
      () => {
        reject(new TimeoutError())
        outgoing.destroy()
      },
      Math.max(0, timeoutMs),
    )
    outgoing.on('close', () => clearTimeout(timer))
    outgoing.on('error', reject)
    outgoing.end(shot.body)
  })

class TimeoutError extends Error {
  constructor() {
    super(`no answer within ${REQUEST_TIMEOUT_SECONDS} s`)
  }
}

/**
 * Sends the schedule's requests at their times over warm-up, window and a short tail on keep-alive
 * connections (up to MAX_CONNECTIONS, opened as needed), then waits for every answer or its
 * timeout, REQUEST_TIMEOUT_SECONDS after the request's scheduled time.
 */
export const runOpenLoop = async (
  baseUrl: string,
  spec: OpenLoopSpec,
  window: MeasureWindow,
): Promise<ScenarioResult> => {
  const totalMs = (spec.warmupSeconds + spec.durationSeconds + TAIL_SECONDS) * 1000
  const schedule = arrivalSchedule(
    spec.arrivals.map((stream) => stream.perSecond),
    totalMs / 1000,
    // The same arrivals for every server.
    seededRandom(spec.name),
  )
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_CONNECTIONS })
  const outcomes: Outcome[] = []
  const failures = new Map<Kind, string>()
  const sendLags: number[] = []
  const inFlight = new Set<Promise<void>>()
  let mostInFlight = 0
  let waitedForConnection = 0

  const start = performance.now()
  const from = start + spec.warmupSeconds * 1000
  const to = from + spec.durationSeconds * 1000
  const timers = [
    setTimeout(() => window.onStart(), from - performance.now()),
    setTimeout(() => window.onEnd(), to - performance.now()),
  ]

  const fire = (arrival: Arrival) => {
    const stream = spec.arrivals[arrival.stream]
    if (!stream) throw new Error(`${spec.name}: no arrival stream ${arrival.stream}`)
    const shot = stream.next()
    const scheduledAt = start + arrival.at
    const now = performance.now()
    if (scheduledAt >= from && scheduledAt < to) sendLags.push(now - scheduledAt)
    if (inFlight.size >= MAX_CONNECTIONS) waitedForConnection += 1
    const settle = (
      outcome: Omit<Outcome, 'kind' | 'scheduledAt' | 'doneAt'>,
      failure: string | undefined,
    ) => {
      outcomes.push({ kind: shot.kind, scheduledAt, doneAt: performance.now(), ...outcome })
      if (failure !== undefined && !failures.has(shot.kind)) failures.set(shot.kind, failure)
    }
    const done: Promise<void> = send(agent, baseUrl, shot, scheduledAt + TIMEOUT_MS - now)
      .then(({ status, body, headers }) => {
        const correct = status >= 200 && status < 300 && shot.isCorrect(body, headers)
        settle({ answer: { status, correct } }, correct ? undefined : failureOf(status, body))
      })
      .catch((error: unknown) => {
        if (error instanceof TimeoutError) settle({ timedOut: true }, error.message)
        else settle({}, `no answer: ${error instanceof Error ? error.message : String(error)}`)
      })
      .finally(() => inFlight.delete(done))
    inFlight.add(done)
    mostInFlight = Math.max(mostInFlight, inFlight.size)
  }

  try {
    // One timer at a time, to the next arrival; whatever is due when it fires goes out at once.
    // After the last one, the tail runs out, so the window's end is always marked.
    await new Promise<void>((resolve, reject) => {
      let next = 0
      const tick = () => {
        try {
          const elapsed = performance.now() - start
          for (let arrival = schedule[next]; arrival && arrival.at <= elapsed; arrival = schedule[++next])
            fire(arrival)
          const upcoming = schedule[next]
          const now = performance.now() - start
          if (upcoming) setTimeout(tick, upcoming.at - now)
          else setTimeout(resolve, totalMs - now)
        } catch (error) {
          reject(error)
        }
      }
      tick()
    })
    while (inFlight.size > 0) await Promise.all(inFlight)
  } finally {
    for (const timer of timers) clearTimeout(timer)
    agent.destroy()
  }

  const { byKind, errors, offeredPerSecond } = summarize(outcomes, { from, to }, failures)
  return {
    name: spec.name,
    connections: mostInFlight,
    seconds: spec.durationSeconds,
    errors,
    byKind,
    openLoop: {
      offeredPerSecond,
      waitedForConnection,
      sendLagP99Ms: percentile(Float64Array.from(sendLags).sort(), 99),
    },
  }
}

/// A bench-only counter of what one answer costs the server in database statements and CPU, loaded
/// into the server process with `BENCH_NODE_ARGS="--import=$PWD/dist/bench/query-counter.js"` and
/// `BENCH_QUERY_COUNT_FILE=/tmp/counts.jsonl`. It wraps `pg`'s `Client.prototype.query` (every
/// statement Kysely sends, projector and reactors included) and counts HTTP requests, and appends
/// a cumulative snapshot a second to the file: a window's figures are the difference of two
/// snapshots (bench/query-counts.ts prints them). No production code knows of it.

import { appendFileSync } from 'node:fs'
import http from 'node:http'
import { createRequire } from 'node:module'
import { isMainThread } from 'node:worker_threads'

const file = process.env.BENCH_QUERY_COUNT_FILE

type QueryFn = (this: unknown, ...args: unknown[]) => unknown

/** The statement's shape without its values: its first words and the tables it names. */
const shapeOf = (text: string): string => {
  const compact = text.replace(/\s+/g, ' ').trim()
  const verb = compact.split(' ', 1)[0]?.toLowerCase() ?? '?'
  const tables = [...compact.matchAll(/\b(?:from|into|update|join)\s+"?([a-z_]+)"?/gi)].map((m) => m[1])
  return `${verb} ${[...new Set(tables)].join(',')}`.trim()
}

// The main thread only: the server's worker threads (password hashing) load it too.
if (file && isMainThread) {
  const require = createRequire(import.meta.url)
  const pg = require('pg') as { Client: { prototype: { query: QueryFn } } }
  const shapes = new Map<string, number>()
  let queries = 0
  let requests = 0
  const original = pg.Client.prototype.query
  pg.Client.prototype.query = function counted(this: unknown, ...args: unknown[]) {
    const [config] = args
    const text =
      typeof config === 'string'
        ? config
        : typeof config === 'object' && config !== null && 'text' in config
          ? String((config as { text: unknown }).text)
          : ''
    queries += 1
    const shape = shapeOf(text)
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1)
    return original.apply(this, args)
  }
  const emit = http.Server.prototype.emit as (this: http.Server, event: string, ...rest: unknown[]) => boolean
  http.Server.prototype.emit = function countedEmit(this: http.Server, event: string, ...rest: unknown[]) {
    if (event === 'request') requests += 1
    return emit.call(this, event, ...rest)
  } as typeof http.Server.prototype.emit
  const timer = setInterval(() => {
    const cpu = process.cpuUsage()
    const snapshot = {
      at: Date.now(),
      requests,
      queries,
      cpuMs: (cpu.user + cpu.system) / 1000,
      shapes: Object.fromEntries(shapes),
    }
    appendFileSync(file, `${JSON.stringify(snapshot)}\n`)
  }, 1000)
  timer.unref()
}

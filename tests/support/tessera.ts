/// A Tessera for HTTP tests: a fresh database of the given kind, configuration from a test
/// environment (plus overrides), a silent logger, and `inject` helpers that keep cookies.

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import pino from 'pino'
import { openTesseraDatabase } from '../../app/database.js'
import { createTessera, type Tessera } from '../../app/server/tessera.js'
import { type Env, loadConfig } from '../../infra/config/config.js'
import { type DatabaseKind, freshPglite, freshPostgres } from './databases.js'

export type TestTessera = Tessera & { baseUrl: string; api: TestClient; cleanup(): Promise<void> }

export type StartOptions = {
  kind?: DatabaseKind
  env?: Env
  clock?: () => Date
  listen?: boolean
  /** A config file's contents (feature options). */
  features?: object
  /** The built portal (web/dist) to serve at `/`; none by default. */
  portalDir?: string
  /** When route schemas are compiled; on first use, as served, unless a test asks otherwise. */
  compileSchemas?: 'on-first-use' | 'at-start-up'
}

const TEST_SECRET = 'test-secret-that-is-long-enough-0123456789'

export const startTessera = async (options: StartOptions = {}): Promise<TestTessera> => {
  const { kind = 'pglite', env = {}, listen = false } = options
  const database = kind === 'pglite' ? await freshPglite() : await freshPostgres()
  const cwd = mkdtempSync(join(tmpdir(), 'tessera-test-'))
  if (options.features) {
    writeFileSync(join(cwd, 'tessera.config.json'), JSON.stringify(options.features))
  }
  const config = loadConfig({ NODE_ENV: 'test', AUTH_SECRET: TEST_SECRET, ...env }, { cwd })
  const tessera = await createTessera({
    config,
    logger: pino({ level: 'silent' }),
    database,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.portalDir ? { portalDir: options.portalDir } : {}),
    ...(options.compileSchemas ? { compileSchemas: options.compileSchemas } : {}),
  })
  let baseUrl = config.baseUrl
  // A `PORT` in env is honoured, so a test can make BASE_URL (and thus mail links) name this server.
  const port = env.PORT === undefined ? 0 : config.port
  if (listen && tessera.app) baseUrl = await tessera.app.listen({ host: '127.0.0.1', port })
  return {
    ...tessera,
    baseUrl,
    api: testClient(tessera),
    cleanup: () => tessera.close(),
  }
}

/**
 * A second instance beside `main` (started on PostgreSQL), as a scaled deployment runs one: the same
 * database and test environment, `--role api`, so it never projects and reads what `main`'s
 * projector writes. The caller closes it.
 */
export const startApiInstance = async (main: TestTessera, env: Env = {}): Promise<Tessera> => {
  const { url } = main.database as unknown as { url?: string }
  if (!url) throw new Error('a second instance needs the first on PostgreSQL')
  return createTessera({
    config: loadConfig({ NODE_ENV: 'test', AUTH_SECRET: TEST_SECRET, ...env, DATABASE_URL: url }),
    logger: pino({ level: 'silent' }),
    role: 'api',
    database: await openTesseraDatabase({ kind: 'postgres', url }),
  })
}

type InjectResult = {
  status: number
  json: unknown
  headers: Awaited<ReturnType<FastifyInstance['inject']>>['headers']
  body: string
}

export type TestClient = {
  request(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<InjectResult>
}

/**
 * Sends requests to /api/auth through `inject`; pass `cookie` headers explicitly to act as a browser.
 * Like a browser, a POST with cookies gets our own `Origin` unless the test names one (the origin
 * check refuses cookie-bearing POSTs without it).
 */
export const testClient = (tessera: Tessera): TestClient => ({
  async request(method, path, body, headers = {}) {
    const app = tessera.app
    if (!app) throw new Error('this Tessera does not serve HTTP')
    const browserOrigin =
      method !== 'GET' && headers.cookie !== undefined && headers.origin === undefined
        ? { origin: tessera.ctx.config.baseOrigin }
        : {}
    const response = await app.inject({
      method,
      url: `/api/auth${path}`,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...browserOrigin,
        ...headers,
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    })
    let json: unknown = null
    try {
      json = response.body ? JSON.parse(response.body) : null
    } catch {
      json = null
    }
    return { status: response.statusCode, json, headers: response.headers, body: response.body }
  },
})

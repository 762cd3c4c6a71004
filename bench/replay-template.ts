/// The replay bench's pattern: one person's life through Tessera's real HTTP API (sign-up, a second
/// sign-in, an organization, an API key, a sign-out), recorded once into the log by a real server,
/// so the generated log has the shapes the routes write, not shapes written by hand for the bench.

import { randomBytes } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BENCH_SERVER_KEY } from './api-keys.js'
import { BENCH_PASSWORD } from './seed.js'
import { baseServerEnv, freePort, startProgram } from './server.js'
import { JSON_HEADERS, parse } from './shots.js'

export type TemplateTarget = {
  /** Where the log lives: PostgreSQL, or PGlite in `dataDir`. */
  databaseUrl: string | undefined
  dataDir: string
  secret: string
  main: string
}

/** The environment a Tessera process of the bench (server, `replay`, projector) runs with. */
export const tesseraEnv = (target: TemplateTarget, port: number): NodeJS.ProcessEnv => ({
  ...baseServerEnv(port),
  HOST: '127.0.0.1',
  DATA_DIR: target.dataDir,
  LOG_LEVEL: 'warn',
  AUTH_SECRET: target.secret,
  RATE_LIMIT: 'off',
  SERVER_KEYS: `bench=${BENCH_SERVER_KEY}`,
  SMTP_URL: 'smtp://127.0.0.1:9',
  ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
})

type Answer = { status: number; body: unknown; cookie: string | undefined }

const call = async (baseUrl: string, path: string, body: object, headers: Record<string, string> = {}) => {
  const response = await fetch(`${baseUrl}/api/auth${path}`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, origin: baseUrl, ...headers },
    body: JSON.stringify(body),
  })
  const answer: Answer = {
    status: response.status,
    body: parse(await response.text()),
    cookie: response.headers
      .getSetCookie()
      .map((header) => header.split(';', 1)[0] ?? '')
      .find((pair) => pair.startsWith('better-auth.session_token=')),
  }
  if (response.status >= 300) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`)
  return answer
}

/** The template's person and the session their sign-up opened (still alive: get-session's to read). */
export type TemplatePerson = { userId: string; cookie: string }

/** One person's life, as the real mix of the log: what each of these routes appends. */
const livePattern = async (baseUrl: string): Promise<TemplatePerson> => {
  const email = `replay-${randomBytes(4).toString('hex')}@example.com`
  const signUp = await call(baseUrl, '/sign-up/email', {
    name: 'Replay Bench',
    email,
    password: BENCH_PASSWORD,
  })
  const signIn = await call(baseUrl, '/sign-in/email', { email, password: BENCH_PASSWORD })
  const cookie = { cookie: signUp.cookie ?? '' }
  // get-session signs a JWT: the deployment's first signing key is made here, as on any live
  // server, so the `--role api` server of the catch-up signs with a key the log already shows.
  const session = await fetch(`${baseUrl}/api/auth/get-session`, { headers: cookie })
  if (!session.ok || !session.headers.get('set-auth-jwt'))
    throw new Error(`get-session: ${session.status} ${await session.text()}`)
  await call(baseUrl, '/organization/create', { name: 'Replay Org', slug: email.split('@')[0] ?? '' }, cookie)
  await call(baseUrl, '/api-key/create', { name: 'replay' }, cookie)
  await call(baseUrl, '/sign-out', {}, { cookie: signIn.cookie ?? '' })
  const userId = (signUp.body as { user?: { id?: string } } | null)?.user?.id
  if (!userId || !signUp.cookie) throw new Error('sign-up answered without a user or a session cookie')
  return { userId, cookie: signUp.cookie }
}

/** Starts Tessera on the target (migrating it), records the pattern once, and stops it. */
export const recordTemplate = async (target: TemplateTarget): Promise<TemplatePerson> => {
  const port = await freePort()
  const server = await startProgram({
    label: 'tessera (replay template)',
    script: target.main,
    // Removed when the server stops; the data directory is the target's, kept.
    workDir: await mkdtemp(join(tmpdir(), 'tessera-replay-work-')),
    port,
    env: tesseraEnv(target, port),
    nodeArgs: [],
  })
  try {
    return await livePattern(server.baseUrl)
  } finally {
    await server.stop()
  }
}

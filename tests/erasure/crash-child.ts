/// The process erasure-crash.int.spec.ts kills: a Tessera on the test's PostgreSQL database signs a
/// person up, then deletes their account and SIGKILLs itself the instant the deletion's append has
/// committed, before the append even returns to the command (let alone anything after it runs).
/// Bundled by the spec (rolldown) because the child runs plain Node. Prints the user id first.

import pino from 'pino'
import { createTessera } from '../../app/server/tessera.js'
import { loadConfig } from '../../infra/config/config.js'

const config = loadConfig(process.env, { cwd: process.env.TESSERA_TEST_CWD ?? process.cwd() })
const tessera = await createTessera({ config, logger: pino({ level: 'silent' }) })
const app = tessera.app
if (!app) throw new Error('no HTTP app')

const post = (path: string, body: object, cookie?: string) =>
  app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    headers: { 'content-type': 'application/json', origin: config.baseOrigin, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  })

const signUp = await post('/sign-up/email', {
  name: process.env.CRASH_NAME,
  email: process.env.CRASH_EMAIL,
  password: process.env.CRASH_PASSWORD,
})
if (signUp.statusCode !== 200) throw new Error(`sign-up answered ${signUp.statusCode}: ${signUp.body}`)
const cookie = [signUp.headers['set-cookie'] ?? []]
  .flat()
  .map((line) => String(line).split(';')[0])
  .join('; ')
const { user } = JSON.parse(signUp.body) as { user: { id: string } }
process.stdout.write(`${JSON.stringify({ userId: user.id })}\n`)

// The SQL store tells its subscribers synchronously once a transaction has committed. The next
// commit is the deletion's: die there.
tessera.store.subscribe(() => process.kill(process.pid, 'SIGKILL'))
await post('/delete-user', {}, cookie)
process.stdout.write('survived the deletion\n')
process.exit(0)

/// Fault 2: the real PostgreSQL server stopped under load (a cluster of this test's own, so the
/// other tests' server is untouched), left down, then started again. While it is down every
/// request that needs it answers 503 with a code that says why (never a 500, never a 401 for a good
/// session); no command that was acknowledged is missing from the log afterwards; and the service
/// answers again by itself within seconds of the server's return, with nobody restarting Tessera.
///
/// The outage lasts FAULT_OUTAGE_SECONDS (60 by default, as the issue asks).

import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTesseraDatabase } from '../../app/database.js'
import { createTessera } from '../../app/server/tessera.js'
import { userStream } from '../../domain/user/user.js'
import { loadConfig } from '../../infra/config/config.js'
import { browserFor } from '../support/browser.js'
import { type PostgresCluster, startPostgresCluster } from '../support/postgres-cluster.js'
import { type TestTessera, testClient } from '../support/tessera.js'
import { printFigures, seconds, sleep, tally } from './support.js'

const OUTAGE_MS = Number(process.env.FAULT_OUTAGE_SECONDS ?? 60) * 1000
const WORKERS = 8

type Answer = { worker: number; sentAt: number; doneAt: number; status: number; code?: string; name: string }

describe('PostgreSQL stopped under load', () => {
  let cluster: PostgresCluster
  let tessera: TestTessera
  beforeAll(async () => {
    cluster = await startPostgresCluster()
    const url = await cluster.createDatabase('tessera')
    const config = loadConfig(
      { NODE_ENV: 'test', AUTH_SECRET: 'outage-test-secret-0123456789abcdefghij', DATABASE_URL: url },
      { cwd: import.meta.dirname },
    )
    const database = await openTesseraDatabase({ kind: 'postgres', url })
    const running = await createTessera({ config, logger: pino({ level: 'silent' }), database })
    tessera = {
      ...running,
      baseUrl: config.baseUrl,
      api: testClient(running),
      cleanup: () => running.close(),
    }
  })
  afterAll(async () => {
    await tessera?.cleanup()
    await cluster?.destroy()
  })

  it(`answers 503 while it is down, loses no acknowledged command, and recovers by itself`, async () => {
    // One at a time: on a loaded machine eight scrypt sign-ups at once can outlast the read-your-
    // writes bound (503, user created all the same); then the user signs in instead.
    const people: { browser: ReturnType<typeof browserFor>; userId: string }[] = []
    for (let worker = 0; worker < WORKERS; worker++) {
      const browser = browserFor(tessera)
      const credentials = { email: `worker-${worker}@example.com`, password: 'correct horse battery' }
      let answer = await browser.post('/sign-up/email', { name: `worker ${worker}`, ...credentials })
      for (let attempt = 0; answer.status !== 200 && attempt < 5; attempt++) {
        await sleep(1000)
        answer = await browser.post('/sign-in/email', credentials)
      }
      expect(answer.status).toBe(200)
      people.push({ browser, userId: (answer.json as { user: { id: string } }).user.id })
    }

    const answers: Answer[] = []
    let stopLoad = false
    // Each worker renames its user again and again: every 200 is a command the log must keep.
    const load = people.map(async ({ browser }, worker) => {
      for (let n = 0; !stopLoad; n++) {
        const name = `worker ${worker} #${n}`
        const sentAt = Date.now()
        const answer = await browser.post('/update-user', { name })
        const code = (answer.json as { code?: string } | null)?.code
        answers.push({
          worker,
          sentAt,
          doneAt: Date.now(),
          status: answer.status,
          name,
          ...(code ? { code } : {}),
        })
        await sleep(answer.status === 200 ? 10 : 50)
      }
    })

    await sleep(3000)
    const stopping = Date.now()
    await cluster.stop()
    const down = Date.now()
    await sleep(OUTAGE_MS)
    const starting = Date.now()
    await cluster.start()
    const up = Date.now()
    // Every worker must get a 200 again; the slowest one says when the service was back.
    const backAt = new Array<number>(WORKERS).fill(0)
    while (backAt.some((at) => at === 0) && Date.now() - up < 60_000) {
      for (const answer of answers)
        if (answer.status === 200 && answer.sentAt >= up && backAt[answer.worker] === 0)
          backAt[answer.worker] = answer.doneAt
      await sleep(50)
    }
    await sleep(2000)
    stopLoad = true
    await Promise.all(load)

    const during = answers.filter((answer) => answer.sentAt >= down && answer.doneAt <= starting)
    const acknowledged = answers.filter((answer) => answer.status === 200)
    const logged = new Set<string>()
    for (const { userId } of people)
      for (const event of await tessera.store.readStream(userStream(userId)))
        if (event.type === 'user.profile-updated') logged.add(String((event.data as { name?: unknown }).name))
    const lost = acknowledged.filter((answer) => !logged.has(answer.name))
    const recoveryMs = Math.max(...backAt) - up
    const ready = await tessera.api.request('GET', '/ready')

    printFigures('postgres outage', {
      outageSeconds: seconds(starting - down),
      stopSeconds: seconds(down - stopping),
      restartSeconds: seconds(up - starting),
      requests: answers.length,
      duringOutage: during.length,
      duringOutageAnswers: tally(during.map((answer) => `${answer.status} ${answer.code ?? ''}`.trim())),
      allAnswers: tally(answers.map((answer) => `${answer.status} ${answer.code ?? ''}`.trim())),
      acknowledged: acknowledged.length,
      acknowledgedLost: lost.length,
      recoverySeconds: seconds(recoveryMs),
      readyAfter: ready.status,
    })
    expect(during.length).toBeGreaterThan(0)
    expect(new Set(during.map((answer) => answer.status))).toEqual(new Set([503]))
    expect(
      during.every(
        (answer) => answer.code === 'DATABASE_UNAVAILABLE' || answer.code === 'READ_MODELS_BEHIND',
      ),
    ).toBe(true)
    expect(answers.filter((answer) => answer.status >= 500 && answer.status !== 503)).toEqual([])
    expect(answers.filter((answer) => answer.status === 401)).toEqual([])
    expect(logged.size).toBeGreaterThan(0)
    expect(lost).toEqual([])
    expect(backAt.every((at) => at > 0)).toBe(true)
    expect(recoveryMs).toBeLessThan(10_000)
    expect(ready.status).toBe(200)
  })
})

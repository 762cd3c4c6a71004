/// Route schemas are compiled on first use when Tessera serves (infra/http/compile-on-first-use.ts),
/// so a schema that cannot compile would only fail on the first request that needs it. Here every
/// route's schemas are compiled at start-up instead, as Fastify does by default, and the answers
/// are the same either way.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'

describe('route schemas', () => {
  let onFirstUse: TestTessera
  let atStartUp: TestTessera

  beforeAll(async () => {
    onFirstUse = await startTessera()
    atStartUp = await startTessera({ compileSchemas: 'at-start-up' })
  })
  afterAll(async () => {
    await onFirstUse.cleanup()
    await atStartUp.cleanup()
  })

  it("all compile: every route's validators and serializers, for every answer", async () => {
    // Fastify compiles the schemas of every registered route before it is ready, and fails if one
    // cannot be compiled.
    await expect(atStartUp.app?.ready()).resolves.toBeDefined()
  })

  it('give the same answers compiled on first use as compiled at start-up', async () => {
    const ask = async (tessera: TestTessera) => [
      await tessera.api.request('GET', '/get-session'),
      await tessera.api.request('POST', '/sign-up/email', {
        email: 'not-an-email',
        password: 'x',
        name: 'A',
      }),
      await tessera.api.request('POST', '/sign-in/email', {
        email: 'nobody@example.com',
        password: 'correct horse 1',
      }),
      await tessera.api.request('GET', '/ok'),
    ]
    const answers = (list: Awaited<ReturnType<typeof ask>>) =>
      list.map((answer) => ({ status: answer.status, body: answer.json }))
    const lazy = answers(await ask(onFirstUse))
    expect(lazy.map((answer) => answer.status)).toEqual([200, 400, 401, 200])
    expect(lazy).toEqual(answers(await ask(atStartUp)))
  })
})

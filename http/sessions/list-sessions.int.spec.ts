/// A kept list cannot hear of uses (they are not events): those another instance records in the
/// table show once the kept last uses are older than their maximum age; this process's own at once.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordSessionUse } from '../../projections/sessions/session-last-use.js'
import { devicesFor } from '../../tests/support/browser.js'
import { startTessera, type TestTessera } from '../../tests/support/tessera.js'
import { createSessionLister } from './list-sessions.js'
import { createSessionCache } from './session-cache.js'
import { ignoreSessionUsage, type SessionUsage } from './session-usage.js'

const T0 = Date.parse('2030-05-01T08:00:00.000Z')
const LATER = new Date(T0 + 20 * 60_000)
const MAX_AGE_MS = 300

describe('list-sessions: last uses under a kept list', () => {
  let tessera: TestTessera
  beforeEach(async () => {
    tessera = await startTessera({ clock: () => new Date(T0) })
  })
  afterEach(() => tessera.cleanup())

  const signedUp = async () => {
    const device = await devicesFor(() => tessera, 'correct horse battery').signedUp()
    const session = await device.session()
    if (!session) throw new Error('no session')
    return session.session
  }

  it("shows another instance's recorded use once the kept last uses are older than their maximum age", async () => {
    const { id, userId } = await signedUp()
    const cache = createSessionCache()
    const list = createSessionLister({
      db: tessera.ctx.db,
      cache,
      usage: ignoreSessionUsage,
      lastUsesMaxAgeMs: MAX_AGE_MS,
    })
    const updatedAt = async () => (await list(userId, new Date(T0)))[0]?.updatedAt
    expect(await updatedAt()).toBe(new Date(T0).toISOString())
    expect(cache.listOf(userId)).toBeDefined()

    await recordSessionUse(tessera.ctx.db, id, LATER)
    // Kept: the table is not read again yet...
    expect(await updatedAt()).toBe(new Date(T0).toISOString())
    // ...and is once the last uses are old enough; where nothing is kept, at once.
    await new Promise((resolve) => setTimeout(resolve, MAX_AGE_MS + 50))
    expect(await updatedAt()).toBe(LATER.toISOString())
    const uncached = createSessionLister({ db: tessera.ctx.db, cache: null, usage: ignoreSessionUsage })
    expect((await uncached(userId, new Date(T0)))[0]?.updatedAt).toBe(LATER.toISOString())
  })

  it("shows this process's own recorded use at once over a kept list", async () => {
    const { userId } = await signedUp()
    let recorded: number | undefined
    const usage: SessionUsage = { used() {}, recordedUse: () => recorded }
    const list = createSessionLister({ db: tessera.ctx.db, cache: createSessionCache(), usage })
    const updatedAt = async () => (await list(userId, new Date(T0)))[0]?.updatedAt
    expect(await updatedAt()).toBe(new Date(T0).toISOString())
    recorded = LATER.getTime()
    expect(await updatedAt()).toBe(LATER.toISOString())
  })

  // The route sends an answer it was given before as it serialized it then, so a kept list must
  // not come back the same once its answer would differ.
  it('gives the same answer for a kept list only while no entry expired or was used here since', async () => {
    const { id, userId } = await signedUp()
    let recorded: number | undefined
    const usage: SessionUsage = { used() {}, recordedUse: () => recorded }
    const list = createSessionLister({ db: tessera.ctx.db, cache: createSessionCache(), usage })
    const first = await list(userId, new Date(T0))
    expect(first.map((session) => session.id)).toEqual([id])
    expect(await list(userId, new Date(T0 + 1000))).toBe(first)

    recorded = LATER.getTime()
    const used = await list(userId, new Date(T0))
    expect(used).not.toBe(first)
    expect(used[0]?.updatedAt).toBe(LATER.toISOString())

    recorded = undefined
    const expiresAt = Date.parse(first[0]?.expiresAt ?? '')
    expect(await list(userId, new Date(expiresAt - 1))).toBe(first)
    expect(await list(userId, new Date(expiresAt))).toEqual([])
  })
})

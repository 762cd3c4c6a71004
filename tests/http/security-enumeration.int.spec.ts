/// User enumeration by timing: signed-out routes that act only when an address exists must answer
/// before they do that work, so a known address costs the caller no more time than an unknown one.
/// The proof holds the event store's appends: a route that records before answering cannot answer.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { START } from '../../infra/event-store/event-store.js'
import { browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const EMAIL = 'ada@example.com'

describe('signed-out routes answer before the work an existing address causes (pglite)', () => {
  let tessera: TestTessera
  let release: () => void = () => {}

  beforeAll(async () => {
    tessera = await startTessera()
    const signUp = await tessera.api.request('POST', '/sign-up/email', {
      name: 'Ada',
      email: EMAIL,
      password: PASSWORD,
    })
    expect(signUp.status).toBe(200)
  })
  afterAll(async () => {
    release()
    await tessera.cleanup()
  })

  /** Makes every append wait until `release()`; the real store does the work afterwards. */
  const holdAppends = () => {
    const store = tessera.ctx.store
    const append = store.appendToStream.bind(store)
    let open: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      open = resolve
    })
    store.appendToStream = async (...args) => {
      await gate
      return append(...args)
    }
    release = () => {
      store.appendToStream = append
      open()
    }
  }

  const answerWhileHeld = async (path: string, body: object, headers: Record<string, string> = {}) => {
    holdAppends()
    const answer = tessera.api.request('POST', path, body, headers)
    const held = new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), 3000))
    const first = await Promise.race([answer, held])
    release()
    return { first, answer: await answer }
  }

  const eventTypes = async () => (await tessera.ctx.store.readAll(START, 1000)).map((event) => event.type)

  it('send-verification-email, signed out, for an unverified address', async () => {
    const before = (await eventTypes()).filter((t) => t === 'user.verification-email-requested').length
    const { first, answer } = await answerWhileHeld('/send-verification-email', { email: EMAIL })
    expect(first).not.toBe('held')
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({ status: true })
    // The mail is still asked for, after the answer.
    await expect
      .poll(async () => (await eventTypes()).filter((t) => t === 'user.verification-email-requested').length)
      .toBe(before + 1)
  })

  it('request-password-reset for a known address', async () => {
    const { first, answer } = await answerWhileHeld('/request-password-reset', { email: EMAIL })
    expect(first).not.toBe('held')
    expect(answer.status).toBe(200)
    await expect.poll(async () => eventTypes()).toContain('user.password-reset-requested')
  })

  it('change-email, to a free address and to a taken one alike', async () => {
    const mover = browserFor(tessera)
    const signUp = await mover.post('/sign-up/email', {
      name: 'Mo',
      email: 'mo@example.com',
      password: PASSWORD,
    })
    expect(signUp.status).toBe(200)
    const cookie = { cookie: mover.jar.header() ?? '' }
    const changes = async () => (await eventTypes()).filter((t) => t === 'user.email-changed').length
    const before = await changes()

    const taken = await answerWhileHeld('/change-email', { newEmail: EMAIL }, cookie)
    expect(taken.first).not.toBe('held')
    expect(taken.answer.json).toEqual({ status: true })

    const free = await answerWhileHeld('/change-email', { newEmail: 'mo-new@example.com' }, cookie)
    expect(free.first).not.toBe('held')
    expect(free.answer.json).toEqual({ status: true })
    // The free address is still taken, after the answer; the taken one never was.
    await expect.poll(changes).toBe(before + 1)
    await expect
      .poll(async () => (await mover.session())?.user)
      .toMatchObject({ email: 'mo-new@example.com' })
  })
})

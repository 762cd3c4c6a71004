/// admin update-user's address: someone else's is refused with better-auth's admin answer (400
/// USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL) by the store's claim on the address, not by a look at the
/// read model first (issue 31), and nothing about the person changes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const KEY = 'admin-backend-key-0123456789abcdefghij'
const server = { 'x-tessera-server-key': KEY }

describe('admin update-user and an address in use', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ env: { SERVER_KEYS: `backend=${KEY}` } })
  })
  afterAll(() => tessera.cleanup())

  const signUp = async (email: string) => {
    const answer = await browserFor(tessera).post('/sign-up/email', {
      name: 'Someone',
      email,
      password: 'correct horse battery',
    })
    expect(answer.status).toBe(200)
    return (answer.json as { user: { id: string } }).user.id
  }
  const update = (userId: string, data: object) =>
    tessera.api.request('POST', '/admin/update-user', { userId, data }, server)
  const emailOf = async (userId: string) =>
    (
      (await tessera.api.request('GET', `/admin/get-user?id=${userId}`, undefined, server)).json as {
        email: string
      }
    ).email

  it("refuses another person's address, in any case, and keeps the person's own", async () => {
    await signUp('ada@example.com')
    const bob = await signUp('bob@example.com')
    for (const email of ['ada@example.com', 'ADA@Example.com']) {
      const refused = await update(bob, { email })
      expect([refused.status, refused.json]).toEqual([
        400,
        { code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', message: 'User already exists. Use another email.' },
      ])
    }
    expect(await emailOf(bob)).toBe('bob@example.com')
  })

  it('moves a person to a free address, and takes their own again without complaint', async () => {
    const carl = await signUp('carl@example.com')
    expect((await update(carl, { email: 'carl@example.com' })).status).toBe(200)
    const moved = await update(carl, { email: 'carl.new@example.com' })
    expect(moved.status).toBe(200)
    expect(moved.json).toMatchObject({ email: 'carl.new@example.com' })
    expect(await emailOf(carl)).toBe('carl.new@example.com')
  })
})

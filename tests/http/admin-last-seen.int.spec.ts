/// The operator directory's "last seen" (Tessera's own `lastSeenAt` on list-users and get-user):
/// the latest session the person started, null for someone who never signed in, untouched by an
/// operator's impersonation; list-users sorts by it (recently seen first, never seen last) and by
/// role as shown (the default role for none).

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signEmailToken } from '../../infra/crypto/email-token.js'
import { type Browser, browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SECRET = 'test-secret-that-is-long-enough-0123456789'
const PASSWORD = 'correct horse battery'
const BOSS = 'boss@example.com'

type Listed = { id: string; email: string; role: string; lastSeenAt: string | null }

describe('admin directory: last seen (pglite)', () => {
  let tessera: TestTessera
  let admin: Browser

  const signUp = async (email: string) => {
    const browser = browserFor(tessera)
    const response = await browser.post('/sign-up/email', {
      name: email.split('@')[0],
      email,
      password: PASSWORD,
    })
    expect(response.status).toBe(200)
    return { browser, id: (response.json as { user: { id: string } }).user.id }
  }
  const signIn = async (email: string) => {
    const browser = browserFor(tessera)
    expect((await browser.post('/sign-in/email', { email, password: PASSWORD })).status).toBe(200)
    return browser
  }
  const listed = async (query: string) => {
    const response = await admin.get(`/admin/list-users?${query}`)
    expect(response.status).toBe(200)
    return (response.json as { users: Listed[] }).users
  }
  const userOf = async (id: string) => (await admin.get(`/admin/get-user?id=${id}`)).json as Listed

  beforeAll(async () => {
    tessera = await startTessera({ env: { ADMIN_EMAILS: BOSS } })
    const boss = await signUp(BOSS)
    const token = await signEmailToken(
      SECRET,
      { email: BOSS, purpose: 'verify-email' },
      { now: new Date(), expiresInSeconds: 600 },
    )
    expect((await boss.browser.get(`/verify-email?token=${token}`)).status).toBeLessThan(400)
    admin = boss.browser
  })
  afterAll(() => tessera.cleanup())

  it('is the latest sign-in, null for one who never signed in, and impersonation does not move it', async () => {
    const before = Date.now()
    const ada = await signUp('ada@example.com')
    const afterSignUp = (await userOf(ada.id)).lastSeenAt
    expect(afterSignUp).not.toBeNull()
    expect(Date.parse(afterSignUp ?? '')).toBeGreaterThanOrEqual(before - 1000)

    await new Promise((resolve) => setTimeout(resolve, 20))
    await signIn('ada@example.com')
    const afterSignIn = (await userOf(ada.id)).lastSeenAt
    expect(Date.parse(afterSignIn ?? '')).toBeGreaterThan(Date.parse(afterSignUp ?? ''))

    const created = await admin.post('/admin/create-user', { email: 'never@example.com', name: 'Never' })
    const never = (created.json as { user: { id: string } }).user.id
    expect((await userOf(never)).lastSeenAt).toBeNull()

    const operator = await signIn(BOSS)
    expect((await operator.post('/admin/impersonate-user', { userId: ada.id })).status).toBe(200)
    expect((await userOf(ada.id)).lastSeenAt).toBe(afterSignIn)
  })

  it('sorts by last seen, most recent first and the never seen last, and by role as shown', async () => {
    await signUp('grace@example.com')
    await new Promise((resolve) => setTimeout(resolve, 20))
    await signIn('ada@example.com')
    const recent = await listed('sortBy=lastSeenAt&sortDirection=desc&limit=100')
    expect(recent[0]?.email).toBe('ada@example.com')
    expect(recent.at(-1)?.email).toBe('never@example.com')
    const seen = recent
      .filter((user) => user.lastSeenAt !== null)
      .map((user) => Date.parse(user.lastSeenAt ?? ''))
    expect(seen).toEqual([...seen].sort((a, b) => b - a))

    const byRole = await listed('sortBy=role&sortDirection=asc&limit=100')
    expect(byRole[0]).toMatchObject({ email: BOSS, role: 'admin' })
    expect(byRole.slice(1).every((user) => user.role === 'user')).toBe(true)
    const filtered = await listed('filterField=lastSeenAt&filterOperator=lt&filterValue=2000-01-01T00:00:00Z')
    expect(filtered).toEqual([])
  })
})

/// Usernames over HTTP (better-auth's username plugin): sign-up and update-user take one (400 for a
/// broken rule or a taken name), /sign-in/username signs in by it (422 for a broken rule, one 401
/// for an unknown name and a wrong password alike, 403 unverified), /is-username-available answers
/// from the store's claims, and every user answer carries username and displayUsername.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { userStream } from '../../domain/user/user.js'
import { type Browser, browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const COOKIE = 'better-auth.session_token'
const INVALID = { code: 'INVALID_USERNAME_OR_PASSWORD', message: 'Invalid username or password' }
const TAKEN = { code: 'USERNAME_IS_ALREADY_TAKEN', message: 'Username is already taken. Please try another.' }
const TOO_SHORT = { code: 'USERNAME_TOO_SHORT', message: 'Username is too short' }
const TOO_LONG = { code: 'USERNAME_TOO_LONG', message: 'Username is too long' }
const INVALID_NAME = { code: 'INVALID_USERNAME', message: 'Username is invalid' }

type UserAnswer = { id: string; email: string; username: string | null; displayUsername: string | null }

let counter = 0
const uniqueEmail = () => `person-${++counter}@example.com`

describe('usernames (pglite)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera()
  })
  afterAll(() => tessera.cleanup())

  const signUp = (browser: Browser, body: Record<string, unknown>) =>
    browser.post('/sign-up/email', { name: 'Someone', email: uniqueEmail(), password: PASSWORD, ...body })

  const signInUsername = (body: Record<string, unknown>, browser = browserFor(tessera)) =>
    browser.post('/sign-in/username', { password: PASSWORD, ...body })

  const available = async (username: unknown) =>
    tessera.api.request('POST', '/is-username-available', { username })

  it('signs up with a username: stored lowercased, shown as typed, in every user answer', async () => {
    const browser = browserFor(tessera)
    const response = await signUp(browser, { username: 'Ada_Lovelace' })
    expect(response.status).toBe(200)
    const { user } = response.json as { user: UserAnswer }
    expect(user).toMatchObject({ username: 'ada_lovelace', displayUsername: 'Ada_Lovelace' })
    expect((await browser.session())?.user).toMatchObject({
      username: 'ada_lovelace',
      displayUsername: 'Ada_Lovelace',
    })

    const plain = await signUp(browserFor(tessera), {})
    expect((plain.json as { user: UserAnswer }).user).toMatchObject({ username: null, displayUsername: null })
    const displayOnly = await signUp(browserFor(tessera), { displayUsername: 'Not a username!' })
    expect((displayOnly.json as { user: UserAnswer }).user).toMatchObject({
      username: null,
      displayUsername: 'Not a username!',
    })
    const derived = await signUp(browserFor(tessera), { displayUsername: 'Derived.Name' })
    expect((derived.json as { user: UserAnswer }).user).toMatchObject({
      username: 'derived.name',
      displayUsername: 'Derived.Name',
    })
  })

  it('refuses a taken username at sign-up in any letter case (400), and broken rules (400)', async () => {
    expect((await signUp(browserFor(tessera), { username: 'taken_name' })).status).toBe(200)
    for (const username of ['taken_name', 'TAKEN_Name']) {
      const again = await signUp(browserFor(tessera), { username })
      expect(again.status).toBe(400)
      expect(again.json).toEqual(TAKEN)
    }
    const cases: [string, object][] = [
      ['ab', TOO_SHORT],
      ['', TOO_SHORT],
      ['a'.repeat(31), TOO_LONG],
      ['no-dashes', INVALID_NAME],
      ['with space', INVALID_NAME],
    ]
    for (const [username, error] of cases) {
      const refused = await signUp(browserFor(tessera), { username })
      expect(refused.status, username).toBe(400)
      expect(refused.json).toEqual(error)
    }
    expect(
      await tessera.ctx.db.selectFrom('users').where('username', '=', 'taken_name').execute(),
    ).toHaveLength(1)
  })

  it('gives one username to exactly one of two concurrent sign-ups', async () => {
    const answers = await Promise.all(
      [0, 1, 2].map(() => signUp(browserFor(tessera), { username: 'Contested' })),
    )
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400])
    for (const answer of answers.filter((a) => a.status === 400)) expect(answer.json).toEqual(TAKEN)
    const holders = await tessera.ctx.db.selectFrom('users').where('username', '=', 'contested').execute()
    expect(holders).toHaveLength(1)
  })

  it('changes the username on update-user, which frees the old one', async () => {
    const browser = browserFor(tessera)
    await signUp(browser, { username: 'first_name' })
    const other = browserFor(tessera)
    await signUp(other, { username: 'someone_else' })

    const taken = await browser.post('/update-user', { username: 'Someone_Else' })
    expect(taken.status).toBe(400)
    expect(taken.json).toEqual(TAKEN)
    for (const [username, error] of [
      ['x', TOO_SHORT],
      ['bad name', INVALID_NAME],
    ] as const) {
      const refused = await browser.post('/update-user', { username, name: 'Changed' })
      expect(refused.status).toBe(400)
      expect(refused.json).toEqual(error)
    }
    expect((await browser.session())?.user).toMatchObject({ name: 'Someone', username: 'first_name' })

    // The own username again, in another case, is no conflict.
    expect((await browser.post('/update-user', { username: 'FIRST_NAME' })).json).toEqual({ status: true })
    const changed = await browser.post('/update-user', { username: 'Second_Name', displayUsername: 'Second' })
    expect(changed.json).toEqual({ status: true })
    expect((await browser.session())?.user).toMatchObject({
      username: 'second_name',
      displayUsername: 'Second',
    })
    expect((await signInUsername({ username: 'second_name' })).status).toBe(200)
    expect((await signInUsername({ username: 'first_name' })).json).toEqual(INVALID)
    expect((await available('first_name')).json).toEqual({ available: true })
    expect((await signUp(browserFor(tessera), { username: 'First_Name' })).status).toBe(200)

    // The display form alone changes too; the username stays.
    expect((await browser.post('/update-user', { displayUsername: 'SECOND_NAME' })).status).toBe(200)
    expect((await browser.session())?.user).toMatchObject({
      username: 'second_name',
      displayUsername: 'SECOND_NAME',
    })
  })

  it('signs in by username in any case: {redirect, token, user}, the cookie, and Location with a callbackURL', async () => {
    const signedUp = await signUp(browserFor(tessera), { username: 'Grace.H' })
    const userId = (signedUp.json as { user: UserAnswer }).user.id
    const browser = browserFor(tessera)
    const response = await signInUsername({ username: 'GRACE.h' }, browser)
    expect(response.status).toBe(200)
    const answer = response.json as { redirect: boolean; token: string; user: UserAnswer }
    expect(Object.keys(answer).sort()).toEqual(['redirect', 'token', 'user'])
    expect(answer).toMatchObject({
      redirect: false,
      user: { id: userId, username: 'grace.h', displayUsername: 'Grace.H', emailVerified: false },
    })
    expect(answer.token).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(response.body.toLowerCase()).not.toMatch(/password|token_?hash/)
    expect(response.setCookie.some((line) => line.startsWith(`${COOKIE}=`))).toBe(true)
    expect((await browser.session())?.user.id).toBe(userId)

    const redirected = await signInUsername({ username: 'grace.h', callbackURL: '/home', rememberMe: false })
    expect(redirected.status).toBe(200)
    expect(redirected.json).toMatchObject({ redirect: true, url: '/home' })
    expect(redirected.headers.location).toBe('/home')
  })

  it('answers an unknown username and a wrong password with the same 401, and no cookie', async () => {
    await signUp(browserFor(tessera), { username: 'known_user' })
    const failures = [
      { username: 'known_user', password: 'wrong password!' },
      { username: 'Known_User', password: PASSWORD.toUpperCase() },
      { username: 'unknown_user' },
      { username: '' },
      { username: 'known_user', password: '' },
    ]
    for (const failure of failures) {
      const response = await signInUsername(failure)
      expect(response.status, JSON.stringify(failure)).toBe(401)
      expect(response.json).toEqual(INVALID)
      expect(response.setCookie).toEqual([])
    }
  })

  it('answers usernames that break the rules with 422 at sign-in', async () => {
    const cases: [string, object][] = [
      ['ab', TOO_SHORT],
      ['a'.repeat(31), TOO_LONG],
      ['bad-name', INVALID_NAME],
      ['ada@example.com', INVALID_NAME],
    ]
    for (const [username, error] of cases) {
      const response = await signInUsername({ username })
      expect(response.status, username).toBe(422)
      expect(response.json).toEqual(error)
    }
    const missing = await tessera.api.request('POST', '/sign-in/username', { username: 'known_user' })
    expect(missing.status).toBe(400)
    expect(missing.json).toMatchObject({ code: 'VALIDATION_ERROR' })
  })

  it('tells whether a username is available, without a session, in any case', async () => {
    await signUp(browserFor(tessera), { username: 'Occupied' })
    expect((await available('occupied')).json).toEqual({ available: false })
    expect((await available('OCCUPIED')).json).toEqual({ available: false })
    expect((await available('vacant_name')).json).toEqual({ available: true })
    const cases: [string, object][] = [
      ['', INVALID_NAME],
      ['ab', TOO_SHORT],
      ['a'.repeat(31), TOO_LONG],
      ['bad name', INVALID_NAME],
    ]
    for (const [username, error] of cases) {
      const response = await available(username)
      expect(response.status, username).toBe(422)
      expect(response.json).toEqual(error)
    }
    expect((await available(42)).status).toBe(400)
  })

  it("shows a username change in the owner's activity", async () => {
    const browser = browserFor(tessera)
    await signUp(browser, { username: 'before_name' })
    await browser.post('/update-user', { username: 'after_name' })
    const page = (await browser.get('/activity')).json as {
      items: { type: string; details: Record<string, unknown> }[]
    }
    expect(page.items.find((item) => item.type === 'user.username-changed')?.details).toEqual({
      previousUsername: 'before_name',
      username: 'after_name',
      displayUsername: 'before_name',
    })
    expect(page.items.find((item) => item.type === 'user.registered')?.details).toMatchObject({
      username: 'before_name',
    })
  })
})

describe('usernames with email verification required (pglite)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ features: { emailAndPassword: { requireEmailVerification: true } } })
  })
  afterAll(() => tessera.cleanup())

  it('refuses an unverified user 403 after a correct password, and mails a fresh link', async () => {
    const signedUp = await browserFor(tessera).post('/sign-up/email', {
      name: 'Unverified',
      email: 'unverified@example.com',
      password: PASSWORD,
      username: 'unverified',
    })
    expect(signedUp.status).toBe(200)
    const userId = (signedUp.json as { user: UserAnswer }).user.id
    const requests = async () =>
      (await tessera.store.readStream(userStream(userId))).filter(
        (event) => event.type === 'user.verification-email-requested',
      ).length
    const before = await requests()

    const wrong = await browserFor(tessera).post('/sign-in/username', {
      username: 'unverified',
      password: 'wrong password!',
    })
    expect(wrong.status).toBe(401)
    expect(await requests()).toBe(before)

    const refused = await browserFor(tessera).post('/sign-in/username', {
      username: 'Unverified',
      password: PASSWORD,
    })
    expect(refused.status).toBe(403)
    expect(refused.json).toEqual({ code: 'EMAIL_NOT_VERIFIED', message: 'Email not verified' })
    expect(refused.setCookie).toEqual([])
    expect(await requests()).toBe(before + 1)
  })
})

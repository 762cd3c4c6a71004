/// Every account form of the portal, used with the keyboard only (Tab, Shift+Tab, Enter, Space) in a
/// real Chromium: each page's focus order is walked both ways (everything reachable, in document
/// order, with a visible ring), then the form is filled and sent without a mouse. Sign-up, sign-in,
/// forgot and reset password, profile, email change, password change, ending sessions and deleting
/// the account, with a real SMTP sink for the mailed links.

import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { announced, keyboardReport } from './page-helpers.js'
import { ensurePortalBuilt, freePort, hasChromium, launchChromium, screenshot } from './support.js'

const NAME = 'Katherine Johnson'
const EMAIL = 'katherine@example.com'
// Sign-up does not verify the address here, so a change applies at once: later steps use it.
const NEW_EMAIL = 'kj@example.com'
const PASSWORDS = ['orbital-mechanics-1962', 'friendship-seven-1962', 'apollo-eleven-1969'] as const

/** The whole page walked both ways: nothing unreachable, nothing out of order, every ring visible. */
const expectKeyboardWalk = async (page: Page, name: string) => {
  expect(await keyboardReport(page), `keyboard walk of ${name}`).toEqual({
    total: expect.any(Number),
    ok: true,
  })
}

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement)

/** Presses the key (Tab or Shift+Tab) until the target has focus; fails the test when it never does. */
const keyTo = async (page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab') => {
  for (let presses = 0; presses < 40; presses++) {
    await page.keyboard.press(key)
    if (await isFocused(target)) return
  }
  throw new Error(`${key} never reached ${target}`)
}

/** Tab to a text field, and type into it (replacing what it held). */
const typeInto = async (page: Page, field: Locator, text: string, key: 'Tab' | 'Shift+Tab' = 'Tab') => {
  await keyTo(page, field, key)
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.type(text)
}

const focusedTag = (page: Page) => page.evaluate(() => document.activeElement?.tagName ?? 'NONE')

/** A page of the account navigation, reached by keyboard: the nav sits before the heading. */
const navigateTo = async (page: Page, link: 'Profile' | 'Email' | 'Password' | 'Security') => {
  await keyTo(
    page,
    page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: link }),
    'Shift+Tab',
  )
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { name: link, level: 1 }).waitFor()
  await page.waitForLoadState('networkidle')
}

describe.skipIf(!hasChromium)('every account form with the keyboard only', () => {
  let sink: SmtpSink
  let tessera: TestTessera
  let browser: Browser
  let baseUrl: string
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    sink = await startSmtpSink()
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    tessera = await startTessera({
      kind: 'postgres',
      listen: true,
      portalDir,
      env: { PORT: String(port), BASE_URL: baseUrl, SMTP_URL: sink.url },
    })
    browser = await launchChromium()
    context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } })
    context.setDefaultTimeout(10_000)
    page = await context.newPage()
  })

  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await tessera?.cleanup()
    await sink?.close()
  })

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && page !== undefined)
      await screenshot(page, `failed-keyboard-${task.name.replace(/\W+/g, '-')}`)
  })

  /** Another device of the same person, signed in through the API. */
  const anotherDevice = async (password: string) => {
    const device = await browser.newContext({ baseURL: baseUrl })
    const answer = await device.request.post('/api/auth/sign-in/email', {
      data: { email: NEW_EMAIL, password },
      headers: { origin: baseUrl },
    })
    expect(answer.status()).toBe(200)
    return device
  }

  it('sign-up: walked, filled and sent', async () => {
    await page.goto('/sign-up')
    await page.getByRole('heading', { name: 'Create your account', level: 1 }).waitFor()
    await expectKeyboardWalk(page, 'sign-up')
    await typeInto(page, page.getByLabel('Name', { exact: true }), NAME)
    await typeInto(page, page.getByLabel('Email'), EMAIL)
    await typeInto(page, page.getByLabel('Password', { exact: true }), PASSWORDS[0])
    await page.keyboard.press('Enter')
    await page.waitForURL('**/check-email')
  })

  it('profile: walked, the name changed with Enter, the danger zone opened and closed', async () => {
    await page.goto('/account')
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
    await page.waitForLoadState('networkidle')
    await expectKeyboardWalk(page, 'profile')
    const profile = page.getByRole('form', { name: 'Profile' })
    await typeInto(page, profile.getByLabel('Name', { exact: true }), 'Katherine G. Johnson')
    await page.keyboard.press('Enter')
    await announced(profile, 'status', 'Your profile is saved.')

    const open = page.getByRole('button', { name: 'Delete account…' })
    await keyTo(page, open)
    await page.keyboard.press('Enter')
    await page.getByRole('form', { name: 'Delete account' }).waitFor()
    await expectKeyboardWalk(page, 'profile, danger zone open')
    await keyTo(page, page.getByRole('button', { name: 'Cancel' }))
    await page.keyboard.press('Space')
    // The form is gone: focus goes back to the button that opened it, not to the page's start.
    await expect.poll(() => isFocused(open), { timeout: 10_000 }).toBe(true)
  })

  it('email: walked, a new address asked for with Enter', async () => {
    await navigateTo(page, 'Email')
    await expectKeyboardWalk(page, 'email')
    await typeInto(page, page.getByLabel('New email address'), NEW_EMAIL)
    await page.keyboard.press('Enter')
    await page
      .getByRole('form', { name: 'Change email' })
      .getByRole('status')
      .filter({ hasText: NEW_EMAIL })
      .waitFor()
    // The change waits for the link; the walk still reaches everything the page now shows.
    await expectKeyboardWalk(page, 'email, change pending')
  })

  it('password: walked, the checkbox toggled with Space, changed with Enter', async () => {
    await navigateTo(page, 'Password')
    await expectKeyboardWalk(page, 'password')
    const form = page.getByRole('form', { name: 'Change password' })
    await typeInto(page, form.getByLabel('Current password'), PASSWORDS[0])
    await typeInto(page, form.getByLabel('New password', { exact: true }), PASSWORDS[1])
    const signOutOthers = form.getByLabel('Sign out my other devices')
    await keyTo(page, signOutOthers)
    // On by default: Space turns it off, and on again.
    expect(await signOutOthers.isChecked()).toBe(true)
    await page.keyboard.press('Space')
    await expect.poll(() => signOutOthers.isChecked(), { timeout: 10_000 }).toBe(false)
    await page.keyboard.press('Space')
    await expect.poll(() => signOutOthers.isChecked(), { timeout: 10_000 }).toBe(true)
    await keyTo(page, form.getByRole('button', { name: 'Change password' }))
    await page.keyboard.press('Enter')
    await announced(form, 'status', 'Your password is changed, and your other devices are signed out.')
  })

  it('security: one device ended with Enter, then all others behind a confirmation', async () => {
    const devices = [await anotherDevice(PASSWORDS[1])]
    try {
      await navigateTo(page, 'Security')
      const list = page.getByRole('list', { name: 'Signed-in devices' })
      await expect.poll(() => list.getByRole('listitem').count(), { timeout: 10_000 }).toBe(2)
      await expectKeyboardWalk(page, 'security')
      await keyTo(page, list.getByRole('button', { name: 'End session' }))
      await page.keyboard.press('Enter')
      await expect.poll(() => list.getByRole('listitem').count(), { timeout: 10_000 }).toBe(1)
      // Focus never drops to the page's start when the row it was on goes away.
      expect(await focusedTag(page)).not.toBe('BODY')

      devices.push(await anotherDevice(PASSWORDS[1]), await anotherDevice(PASSWORDS[1]))
      await page.reload()
      await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor()
      await expect.poll(() => list.getByRole('listitem').count(), { timeout: 10_000 }).toBe(3)
      await keyTo(page, page.getByRole('button', { name: 'Sign out all other devices (2)' }))
      await page.keyboard.press('Enter')
      // The question replaces the button: focus is on its safe answer, so that a second Enter
      // never ends anything by accident (issue 32); the destructive answer is one Tab away.
      const confirm = page.getByRole('button', { name: 'Sign out 2 other devices' })
      const cancel = page.getByRole('button', { name: 'Cancel' })
      await expect.poll(() => isFocused(cancel), { timeout: 10_000 }).toBe(true)
      await expectKeyboardWalk(page, 'security, confirming')
      await keyTo(page, confirm)
      await page.keyboard.press('Enter')
      await expect.poll(() => list.getByRole('listitem').count(), { timeout: 10_000 }).toBe(1)
      expect(await focusedTag(page)).not.toBe('BODY')
    } finally {
      for (const device of devices) await device.close()
    }
  })

  it('forgot and reset password: walked, asked and set with Enter, after signing out by keyboard', async () => {
    await keyTo(page, page.getByRole('button', { name: 'Sign out' }), 'Shift+Tab')
    await page.keyboard.press('Enter')
    await page.waitForURL('**/sign-in')
    // Walk the page once its form is there, not the frame while the page's code loads.
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor()
    await page.getByRole('form', { name: 'Sign in' }).waitFor()
    await expectKeyboardWalk(page, 'sign-in')
    await keyTo(page, page.getByRole('link', { name: 'Forgot your password?' }))
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Forgot your password?', level: 1 }).waitFor()
    await expectKeyboardWalk(page, 'forgot-password')
    await typeInto(page, page.getByLabel('Email'), NEW_EMAIL)
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor()
    await expectKeyboardWalk(page, 'forgot-password, sent')

    const mail = await sink.waitForMail(
      (m) => m.to.includes(NEW_EMAIL) && m.subject === 'Reset your password',
      10_000,
    )
    await page.goto(mail.links[0] ?? '')
    await page.waitForURL(/\/reset-password\?token=/)
    await page.getByRole('heading', { name: 'Choose a new password', level: 1 }).waitFor()
    await expectKeyboardWalk(page, 'reset-password')
    await typeInto(page, page.getByLabel('New password', { exact: true }), PASSWORDS[2])
    await typeInto(page, page.getByLabel('Repeat the new password'), PASSWORDS[2])
    await page.keyboard.press('Enter')
    await page.waitForURL('**/sign-in')
    await announced(page, 'status', 'Your password has been changed')
  })

  it('sign-in: filled, "Remember me" turned off with Space, sent with Enter', async () => {
    await typeInto(page, page.getByLabel('Email or username'), NEW_EMAIL)
    await typeInto(page, page.getByLabel('Password', { exact: true }), PASSWORDS[2])
    const remember = page.getByLabel('Remember me')
    const before = await remember.isChecked()
    await keyTo(page, remember)
    await page.keyboard.press('Space')
    await expect.poll(() => remember.isChecked(), { timeout: 10_000 }).toBe(!before)
    await page.keyboard.press('Enter')
    await page.waitForURL('**/account')
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
  })

  it('delete account: asked with Space and Enter, confirmed from the mailed link by keyboard', async () => {
    await page.waitForLoadState('networkidle')
    await keyTo(page, page.getByRole('button', { name: 'Delete account…' }))
    await page.keyboard.press('Enter')
    const form = page.getByRole('form', { name: 'Delete account' })
    await typeInto(page, form.getByLabel('Your password'), PASSWORDS[2])
    const understood = form.getByLabel('I understand that my account will be deleted for good')
    await keyTo(page, understood)
    await page.keyboard.press('Space')
    await expect.poll(() => understood.isChecked(), { timeout: 10_000 }).toBe(true)
    await page.keyboard.press('Enter')
    await page.getByText('Check your mail.').waitFor()

    const mail = await sink.waitForMail(
      (m) => m.to.includes(NEW_EMAIL) && m.subject === 'Confirm the deletion of your account',
      10_000,
    )
    // Opened where nobody is signed in, then signed in and confirmed, all by keyboard.
    const phone = await browser.newContext({ baseURL: baseUrl, viewport: { width: 375, height: 800 } })
    try {
      phone.setDefaultTimeout(10_000)
      const tab = await phone.newPage()
      await tab.goto(mail.links[0] ?? '')
      await tab.getByRole('heading', { name: 'Sign in to delete your account', level: 1 }).waitFor()
      await expectKeyboardWalk(tab, 'confirm-deletion, signed out')
      await keyTo(tab, tab.getByRole('link', { name: 'Sign in to continue' }))
      await tab.keyboard.press('Enter')
      await typeInto(tab, tab.getByLabel('Email or username'), NEW_EMAIL)
      await typeInto(tab, tab.getByLabel('Password', { exact: true }), PASSWORDS[2])
      await tab.keyboard.press('Enter')
      await tab.getByRole('heading', { name: 'Delete your account for good?', level: 1 }).waitFor()
      await expectKeyboardWalk(tab, 'confirm-deletion')
      await keyTo(tab, tab.getByRole('button', { name: 'Delete my account' }))
      await tab.keyboard.press('Space')
      await tab.waitForURL('**/goodbye/link')
      await tab.getByRole('heading', { name: 'Your account is deleted', level: 1 }).waitFor()
      await expectKeyboardWalk(tab, 'goodbye')
    } finally {
      await phone.close()
    }
  })
})

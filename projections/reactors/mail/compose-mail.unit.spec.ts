import { describe, expect, it } from 'vitest'
import { deriveToken, issueToken } from '../../../infra/crypto/derived-tokens.js'
import { verifyEmailToken } from '../../../infra/crypto/email-token.js'
import { sha256Hex } from '../../../infra/crypto/tokens.js'
import { composeMail, greetingName, type MailLinkSettings } from './compose-mail.js'
import type { MailEvent } from './mail-events.js'

const secret = 'compose-mail-test-secret-0123456789abcdef'
const settings: MailLinkSettings = {
  baseUrl: 'https://accounts.example.test',
  basePath: '/api/auth',
  secret,
  emailTokenExpiresIn: 3600,
}
const at = new Date('2026-11-21T10:00:00Z')
const context = { name: 'Ann', at, idempotencyKey: 'event-1' }

const compose = (event: MailEvent) => composeMail(event, context, settings)

const linkOf = async (event: MailEvent): Promise<URL> => {
  const mail = await compose(event)
  const url = /https:\/\/\S+/.exec(mail.text)?.[0]
  if (!url) throw new Error('no link in the mail')
  return new URL(url)
}

const claimsOf = async (url: URL, now = new Date(at.getTime() + 60_000)) =>
  verifyEmailToken(secret, url.searchParams.get('token') ?? '', now)

describe('composeMail', () => {
  it('links a verification to verify-email with a verify-email token for that address', async () => {
    const event: MailEvent = {
      type: 'user.verification-email-requested',
      data: { userId: 'u1', email: 'ann@example.com', callbackURL: '/welcome?step=2' },
    }
    const mail = await compose(event)
    expect(mail).toMatchObject({
      to: 'ann@example.com',
      subject: 'Verify your email address',
      idempotencyKey: 'event-1',
    })
    const url = await linkOf(event)
    expect(`${url.origin}${url.pathname}`).toBe('https://accounts.example.test/api/auth/verify-email')
    expect(url.searchParams.get('callbackURL')).toBe('/welcome?step=2')
    expect(await claimsOf(url)).toEqual({
      status: 'valid',
      claims: { email: 'ann@example.com', purpose: 'verify-email' },
    })
  })

  it('issues the token at the event time, so a late retry carries the same expiry', async () => {
    const event: MailEvent = {
      type: 'user.verification-email-requested',
      data: { userId: 'u1', email: 'ann@example.com', callbackURL: null },
    }
    const url = await linkOf(event)
    expect(url.searchParams.get('callbackURL')).toBe('/')
    expect((await claimsOf(url, new Date(at.getTime() + 3599_000))).status).toBe('valid')
    expect((await claimsOf(url, new Date(at.getTime() + 3601_000))).status).toBe('expired')
    expect((await linkOf(event)).href).toBe(url.href)
  })

  it('puts the derived reset token in the path; its hash is the one the event stored', async () => {
    const { requestId, tokenHash } = issueToken(secret, 'password-reset')
    const event: MailEvent = {
      type: 'user.password-reset-requested',
      data: {
        userId: 'u1',
        email: 'ann@example.com',
        requestId,
        tokenHash,
        expiresAt: at.toISOString(),
        redirectTo: null,
      },
    }
    const url = await linkOf(event)
    const token = url.pathname.split('/').at(-1) ?? ''
    expect(url.pathname).toBe(`/api/auth/reset-password/${token}`)
    expect(token).toMatch(/^[A-Za-z0-9]{24}$/)
    expect(sha256Hex(token)).toBe(tokenHash)
    expect(url.searchParams.get('callbackURL')).toBe('/')
    expect((await compose(event)).subject).toBe('Reset your password')
  })

  it('asks the current address to approve an email change', async () => {
    const event: MailEvent = {
      type: 'user.email-change-requested',
      data: {
        userId: 'u1',
        currentEmail: 'ann@example.com',
        newEmail: 'ann@new.example',
        callbackURL: '/settings',
      },
    }
    const mail = await compose(event)
    expect(mail.to).toBe('ann@example.com')
    expect(mail.text).toContain('ann@new.example')
    const url = await linkOf(event)
    expect(url.pathname).toBe('/api/auth/verify-email')
    expect(await claimsOf(url)).toEqual({
      status: 'valid',
      claims: { email: 'ann@example.com', updateTo: 'ann@new.example', purpose: 'confirm-email-change' },
    })
  })

  it('then asks the new address to verify itself', async () => {
    const event: MailEvent = {
      type: 'user.email-change-confirmed',
      data: { userId: 'u1', currentEmail: 'ann@example.com', newEmail: 'ann@new.example', callbackURL: null },
    }
    const mail = await compose(event)
    expect(mail.to).toBe('ann@new.example')
    // Its own wording, not the sign-up verification's.
    expect(mail.subject).toBe('Verify your new email address')
    expect(mail.text).toContain('from ann@example.com to this address')
    expect(mail.text).toContain('Verify new email address: https://')
    expect(mail.text).not.toContain('finish setting up your account')
    expect(mail.html).toContain('Verify your new email address')
    expect(await claimsOf(await linkOf(event))).toEqual({
      status: 'valid',
      claims: { email: 'ann@example.com', updateTo: 'ann@new.example', purpose: 'verify-new-email' },
    })
  })

  it('links a deletion to delete-user/callback with the derived 32-character token', async () => {
    const { requestId, tokenHash } = issueToken(secret, 'delete-account')
    const event: MailEvent = {
      type: 'user.deletion-requested',
      data: {
        userId: 'u1',
        email: 'ann@example.com',
        requestId,
        tokenHash,
        expiresAt: at.toISOString(),
        callbackURL: '/bye',
      },
    }
    const url = await linkOf(event)
    expect(url.pathname).toBe('/api/auth/delete-user/callback')
    const token = url.searchParams.get('token') ?? ''
    expect(token).toBe(deriveToken(secret, 'delete-account', requestId))
    expect(token).toMatch(/^[0-9a-z]{32}$/)
    expect(sha256Hex(token)).toBe(tokenHash)
    expect(url.searchParams.get('callbackURL')).toBe('/bye')
  })

  it('keeps a path in the base URL and never leaves its origin', async () => {
    const event: MailEvent = {
      type: 'user.verification-email-requested',
      data: { userId: 'u1', email: 'ann@example.com', callbackURL: 'https://evil.example/x' },
    }
    const mail = await composeMail(event, context, { ...settings, baseUrl: 'https://example.test/accounts' })
    const url = new URL(/https:\/\/\S+/.exec(mail.text)?.[0] ?? '')
    expect(url.origin).toBe('https://example.test')
    expect(url.pathname).toBe('/accounts/api/auth/verify-email')
  })
})

describe('greetingName', () => {
  it('uses the profile name, else the local part of the address', () => {
    expect(greetingName(' Ann Lee ', 'ann@example.com')).toBe('Ann Lee')
    expect(greetingName('', 'ann.lee@example.com')).toBe('ann.lee')
    expect(greetingName(undefined, 'ann@example.com')).toBe('ann')
  })
})

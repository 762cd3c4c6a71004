/// Issue 32, item 18: an operator's branding reaches the portal (GET /portal-config) and the mails
/// (through the real mail reactor and a real SMTP server); a deployment without one says Tessera.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError } from '../../infra/config/config.js'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

let sink: SmtpSink
let tessera: TestTessera | undefined
beforeAll(async () => {
  sink = await startSmtpSink()
})
afterAll(() => sink.close())
afterEach(async () => {
  await tessera?.cleanup()
  tessera = undefined
  sink.clear()
})

const start = async (branding?: object, more: object = {}) => {
  tessera = await startTessera({
    env: { SMTP_URL: sink.url, MAIL_FROM: 'no-reply@tessera.test', BASE_URL: 'http://tessera.test' },
    features: { emailVerification: { sendOnSignUp: true }, ...(branding ? { branding } : {}), ...more },
  })
  return tessera
}

const signUpMail = async (server: TestTessera, email: string) => {
  const answer = await server.api.request('POST', '/sign-up/email', {
    name: 'Ada',
    email,
    password: 'correct horse battery',
  })
  expect(answer.status).toBe(200)
  return sink.waitForMail((mail) => mail.to.includes(email), 120_000)
}

describe('branding', { timeout: 360_000 }, () => {
  it('names the operator’s product to the portal and in the mails', async () => {
    const server = await start(
      {
        productName: 'Acme Accounts',
        logoUrl: 'https://acme.example/logo.svg',
        accentColor: '#1D4ED8',
        backLink: { label: 'Acme', url: 'https://app.acme.example' },
      },
      // The portal shows the SSO domain's TXT record with the prefix the server checks.
      { sso: { domainVerification: { tokenPrefix: 'acme-verify' } }, oauthProvider: {} },
    )
    const config = await server.api.request('GET', '/portal-config')
    expect((config.json as { sso: unknown }).sso).toEqual({ domainVerificationPrefix: 'acme-verify' })
    // The portal offers an organization's applications only where Tessera is an OpenID provider.
    expect((config.json as { oauthProvider: unknown }).oauthProvider).toEqual({ enabled: true })
    expect(config.status).toBe(200)
    expect((config.json as { branding: unknown }).branding).toEqual({
      productName: 'Acme Accounts',
      logoUrl: 'https://acme.example/logo.svg',
      accent: { color: '#1d4ed8', hover: expect.stringMatching(/^#[0-9a-f]{6}$/), onAccent: '#ffffff' },
      backLink: { label: 'Acme', url: 'https://app.acme.example' },
    })
    const mail = await signUpMail(server, 'ada@acme.example')
    expect(mail.subject).toBe('Acme Accounts: Verify your email address')
    expect(mail.text).toContain('— Acme Accounts')
  })

  it('says Tessera by default, with the subjects as they were', async () => {
    const server = await start()
    const config = await server.api.request('GET', '/portal-config')
    expect((config.json as { branding: unknown }).branding).toEqual({
      productName: 'Tessera',
      logoUrl: null,
      accent: null,
      backLink: null,
    })
    expect((config.json as { sso: unknown }).sso).toEqual({ domainVerificationPrefix: 'better-auth-token' })
    expect((config.json as { oauthProvider: unknown }).oauthProvider).toEqual({ enabled: false })
    const mail = await signUpMail(server, 'bea@example.com')
    expect(mail.subject).toBe('Verify your email address')
    expect(mail.text).toContain('— Tessera')
  })

  it('refuses to start on a bad colour, naming the option', async () => {
    await expect(start({ accentColor: 'red' })).rejects.toThrow(ConfigError)
    await expect(start({ accentColor: 'red' })).rejects.toThrow(/branding\.accentColor must be a colour/)
  })
})

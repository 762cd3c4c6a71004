import { afterEach, beforeEach, expect, it } from 'vitest'
import { setPassword } from '../../command-api/account/credentials.js'
import { runUserCommand } from '../../command-api/shared/run-user-command.js'
import { isDomainError } from '../../domain/shared/errors.js'
import { browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const cli = { requestId: 'cli-request', ip: null, userAgent: 'tessera-cli' }

let tessera: TestTessera
beforeEach(async () => {
  tessera = await startTessera()
})
afterEach(() => tessera.cleanup())

it('is not a route for browsers: only the server API reaches it', async () => {
  const response = await tessera.api.request('POST', '/set-password', { newPassword: 'whatever it is' })
  expect(response).toMatchObject({ status: 403, json: { code: 'SERVER_ONLY_OPERATION' } })
})

it('gives a password to a user without one, who can then sign in', async () => {
  await runUserCommand(
    tessera.ctx,
    cli,
    'no-password-user',
    {
      type: 'register-user',
      userId: 'no-password-user',
      email: 'social@example.com',
      name: 'Social Only',
      image: null,
      credential: null,
      sendVerification: false,
      callbackURL: null,
    },
    { type: 'system' },
  )
  const before = await browserFor(tessera).post('/sign-in/email', {
    email: 'social@example.com',
    password: 'a new password',
  })
  expect(before.status).toBe(401)
  await setPassword(tessera.ctx, cli, { userId: 'no-password-user', newPassword: 'a new password' })
  const after = await browserFor(tessera).post('/sign-in/email', {
    email: 'social@example.com',
    password: 'a new password',
  })
  expect(after.status).toBe(200)
})

it('refuses a user who already has a password', async () => {
  const browser = browserFor(tessera)
  const signUp = await browser.post('/sign-up/email', {
    name: 'P',
    email: 'has@example.com',
    password: 'first password',
  })
  const { user } = signUp.json as { user: { id: string } }
  const error = await setPassword(tessera.ctx, cli, {
    userId: user.id,
    newPassword: 'second password',
  }).catch((e: unknown) => e)
  expect(isDomainError(error) && error.code).toBe('PASSWORD_ALREADY_SET')
})

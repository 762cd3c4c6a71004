/// Helpers for the organization HTTP tests: people who sign up, and refusals checked the way
/// better-auth answers them (status, code and, when given, message).

import { expect } from 'vitest'
import { browserFor } from './browser.js'
import type { TestTessera } from './tessera.js'

const PASSWORD = 'correct horse battery'

export const signUp = async (tessera: TestTessera, name: string) => {
  const device = browserFor(tessera)
  const response = await device.post('/sign-up/email', {
    name,
    email: `${name}@example.com`,
    password: PASSWORD,
  })
  expect(response.status).toBe(200)
  const userId = (response.json as { user: { id: string } }).user.id
  return Object.assign(device, { userId, email: `${name}@example.com` })
}

export const expectRefusal = (
  response: { status: number; json: unknown },
  status: number,
  code: string,
  message?: string,
) => {
  expect({ status: response.status, code: (response.json as { code?: string }).code }).toEqual({
    status,
    code,
  })
  if (message) expect((response.json as { message: string }).message).toBe(message)
}

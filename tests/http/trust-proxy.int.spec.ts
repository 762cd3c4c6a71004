import { expect, it } from 'vitest'
import { browserFor } from '../support/browser.js'
import { startTessera } from '../support/tessera.js'

const signUpFrom = async (env: Record<string, string>) => {
  const tessera = await startTessera({ env })
  try {
    const browser = browserFor(tessera, { 'x-forwarded-for': '203.0.113.7' })
    await browser.post('/sign-up/email', {
      name: 'P',
      email: 'proxy@example.com',
      password: 'behind a proxy',
    })
    return (await browser.session())?.session as { ipAddress?: string } | undefined
  } finally {
    await tessera.cleanup()
  }
}

it('believes X-Forwarded-For only when TRUST_PROXY says so', async () => {
  expect((await signUpFrom({}))?.ipAddress).toBe('127.0.0.1')
  expect((await signUpFrom({ TRUST_PROXY: '1' }))?.ipAddress).toBe('203.0.113.7')
})

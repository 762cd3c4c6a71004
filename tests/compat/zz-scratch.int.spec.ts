import { expect, it } from 'vitest'
import { startTessera } from '../support/tessera.js'
it('probe', async () => {
  const t = await startTessera()
  const su = await t.api.request('POST', '/sign-up/email', { name: 'a', email: 'a@example.com', password: 'correct horse battery' })
  const cookie = [su.headers['set-cookie']].flat().map((l) => String(l).split(';')[0]).join('; ')
  const app = t.app
  if (!app) throw new Error()
  for (const opts of [
    { headers: { cookie } },
    { headers: { cookie, 'content-type': 'application/json' }, payload: '{}' },
    { headers: { 'content-type': 'application/json', cookie }, payload: '{}' },
  ]) {
    const r = await app.inject({ method: 'POST', url: '/api/auth/sign-out', ...opts })
    console.log(JSON.stringify(opts.headers), r.statusCode, r.body)
  }
  await t.cleanup()
  expect(1).toBe(1)
})

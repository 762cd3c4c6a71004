import fastifyCookie from '@fastify/cookie'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { impersonationCookie } from './impersonation-cookie.js'

const settings = { secret: 'a-secret-of-enough-length-for-tests', secure: false, expiresIn: 3600 }

/** A server that writes the cookie on one route and reads it back on another, as the admin routes do. */
const server = async () => {
  const app = Fastify()
  await app.register(fastifyCookie)
  app.post<{ Body: { token: string; dontRemember: boolean } }>('/write', async (request, reply) => {
    impersonationCookie.write(reply, settings, request.body.token, request.body.dontRemember)
    return {}
  })
  app.get('/read', async (request) => impersonationCookie.read(request, settings))
  return app
}

const cookieOf = (header: string | string[] | undefined) => String(header).split(';')[0] ?? ''

describe('the impersonation cookie', () => {
  it.each([true, false])('reads back what was written (dontRemember %s)', async (dontRemember) => {
    const app = await server()
    const written = await app.inject({
      method: 'POST',
      url: '/write',
      payload: { token: 'tok', dontRemember },
    })
    const read = await app.inject({
      url: '/read',
      headers: { cookie: cookieOf(written.headers['set-cookie']) },
    })
    expect(read.json()).toEqual({ operatorToken: 'tok', dontRemember })
  })

  it('gives no operator for a missing cookie or a tampered one', async () => {
    const app = await server()
    const written = await app.inject({
      method: 'POST',
      url: '/write',
      payload: { token: 'tok', dontRemember: false },
    })
    const tampered = cookieOf(written.headers['set-cookie']).replace('tok', 'tak')
    expect((await app.inject({ url: '/read', headers: { cookie: tampered } })).json()).toEqual({
      operatorToken: null,
      dontRemember: false,
    })
    expect((await app.inject({ url: '/read' })).json()).toEqual({ operatorToken: null, dontRemember: false })
  })
})

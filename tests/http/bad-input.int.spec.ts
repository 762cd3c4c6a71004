/// Bad input over HTTP: malformed JSON, wrong content types, huge bodies, unknown, missing and
/// mistyped fields each get a clear 4xx `{code, message}`, never a 500; plus /ok, /error and 404s.

import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SIGN_UP = '/api/auth/sign-up/email'
const JSON_TYPE = { 'content-type': 'application/json' }
const VALID_SIGN_UP = { name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' }
const POST_ROUTES = [
  '/sign-up/email',
  '/sign-in/email',
  '/sign-out',
  '/revoke-session',
  '/revoke-sessions',
  '/revoke-other-sessions',
]

type Reply = { status: number; body: string; json: unknown; contentType: string }

describe('bad input (pglite)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera()
  })
  afterAll(() => tessera.cleanup())

  /** Sends exactly what it is given (no JSON encoding, no default content type). */
  const send = async (options: InjectOptions): Promise<Reply> => {
    const app = tessera.app
    if (!app) throw new Error('no HTTP app')
    const response = await app.inject(options)
    let json: unknown
    try {
      json = JSON.parse(response.body)
    } catch {
      json = undefined
    }
    const contentType = String(response.headers['content-type'] ?? '')
    return { status: response.statusCode, body: response.body, json, contentType }
  }

  const post = (url: string, payload: string | Buffer, headers: Record<string, string> = JSON_TYPE) =>
    send({ method: 'POST', url, payload, headers })

  /** A clear client error: 4xx, JSON `{code, message}` (and, for a validation error, where). */
  const expectClientError = (reply: Reply, status: number, code: string) => {
    expect(reply.status, reply.body).toBe(status)
    expect(reply.contentType).toMatch(/^application\/json/)
    const keys = Object.keys(reply.json as object).filter((key) => !['field', 'rule', 'limit'].includes(key))
    expect(keys.sort()).toEqual(['code', 'message'])
    expect((reply.json as { code: string }).code).toBe(code)
    return (reply.json as { message: string }).message
  }

  it('answers malformed JSON with 400 VALIDATION_ERROR', async () => {
    for (const payload of ['{"email":', '{name: "Ada"}', "{'a':1}", '{"a":1}}', '\u0000', '{"a":"\\x"}']) {
      const reply = await post(SIGN_UP, payload)
      expectClientError(reply, 400, 'VALIDATION_ERROR')
    }
  })

  it('answers a text/plain or form body with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const bodies = [
      [JSON.stringify(VALID_SIGN_UP), 'text/plain'],
      [JSON.stringify(VALID_SIGN_UP), 'text/plain;charset=UTF-8'],
      ['name=Ada&email=ada%40example.com&password=correct+horse', 'application/x-www-form-urlencoded'],
      [
        '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.co\r\n--x--',
        'multipart/form-data; boundary=x',
      ],
      ['<user/>', 'application/xml'],
    ] as const
    for (const [payload, type] of bodies) {
      const reply = await post(SIGN_UP, payload, { 'content-type': type })
      const message = expectClientError(reply, 415, 'UNSUPPORTED_MEDIA_TYPE')
      expect(message).toBe('Unsupported media type')
    }
    expect(await tessera.ctx.db.selectFrom('users').selectAll().execute()).toEqual([])
  })

  it('refuses a 1 MB body with 413 before parsing it', async () => {
    const huge = JSON.stringify({ ...VALID_SIGN_UP, name: 'x'.repeat(1024 * 1024) })
    expectClientError(await post(SIGN_UP, huge), 413, 'PAYLOAD_TOO_LARGE')
  })

  it('answers an unknown field with 400 VALIDATION_ERROR naming it', async () => {
    const reply = await post(SIGN_UP, JSON.stringify({ ...VALID_SIGN_UP, isAdmin: true }))
    expect(expectClientError(reply, 400, 'VALIDATION_ERROR')).toContain('isAdmin')
    const signIn = await post(
      '/api/auth/sign-in/email',
      JSON.stringify({ email: 'a@b.co', password: 'x', role: 'admin' }),
    )
    expect(expectClientError(signIn, 400, 'VALIDATION_ERROR')).toContain('role')
  })

  it('names the field, the rule and its limit in the body, for forms to show next to the field', async () => {
    const long = await post(SIGN_UP, JSON.stringify({ ...VALID_SIGN_UP, name: 'x'.repeat(300) }))
    expect(long.status).toBe(400)
    expect(long.json).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'name',
      rule: 'maxLength',
      limit: 256,
    })
    const { email: _email, ...withoutEmail } = VALID_SIGN_UP
    expect((await post(SIGN_UP, JSON.stringify(withoutEmail))).json).toMatchObject({
      field: 'email',
      rule: 'required',
    })
    const unknown = await post(SIGN_UP, JSON.stringify({ ...VALID_SIGN_UP, isAdmin: true }))
    expect(unknown.json).toMatchObject({ field: 'isAdmin', rule: 'additionalProperties' })
  })

  it('answers a missing field with 400 VALIDATION_ERROR naming it', async () => {
    for (const field of ['name', 'email', 'password'] as const) {
      const { [field]: _missing, ...rest } = VALID_SIGN_UP
      const message = expectClientError(await post(SIGN_UP, JSON.stringify(rest)), 400, 'VALIDATION_ERROR')
      expect(message).toContain(field)
      expect(message).toMatch(/^Invalid body parameters/)
    }
    const revoke = await post('/api/auth/revoke-session', '{}')
    expect([400, 401]).toContain(revoke.status)
  })

  it('answers a mistyped field with 400 VALIDATION_ERROR naming it', async () => {
    const cases = [
      [{ ...VALID_SIGN_UP, email: 42 }, 'email'],
      [{ ...VALID_SIGN_UP, password: ['correct horse battery'] }, 'password'],
      [{ ...VALID_SIGN_UP, name: null }, 'name'],
      [{ ...VALID_SIGN_UP, rememberMe: 'false' }, 'rememberMe'],
      [{ ...VALID_SIGN_UP, image: 7 }, 'image'],
    ] as const
    for (const [body, field] of cases) {
      const message = expectClientError(await post(SIGN_UP, JSON.stringify(body)), 400, 'VALIDATION_ERROR')
      expect(message).toContain(field)
    }
    expect(await tessera.ctx.db.selectFrom('users').selectAll().execute()).toEqual([])
  })

  it('answers a body that is not an object with 400', async () => {
    for (const payload of ['[]', `[${JSON.stringify(VALID_SIGN_UP)}]`, '"ada"', '42', 'true', 'null']) {
      const reply = await post(SIGN_UP, payload)
      expect(reply.status, payload).toBe(400)
      expect(['VALIDATION_ERROR', 'BODY_MUST_BE_AN_OBJECT']).toContain((reply.json as { code: string }).code)
    }
  })

  it('answers a query that does not fit with 400 "Invalid query parameters"', async () => {
    const reply = await send({ method: 'GET', url: '/api/auth/get-session?disableRefresh=maybe' })
    expect(expectClientError(reply, 400, 'VALIDATION_ERROR')).toMatch(
      /^Invalid query parameters.*disableRefresh/,
    )
  })

  it('never answers 500 to anything thrown at the POST routes', async () => {
    const payloads: [string | Buffer, Record<string, string>][] = [
      ['', JSON_TYPE],
      ['{', JSON_TYPE],
      ['[]', JSON_TYPE],
      ['null', JSON_TYPE],
      ['{"__proto__":{"isAdmin":true}}', JSON_TYPE],
      ['{"constructor":{"prototype":{"isAdmin":true}}}', JSON_TYPE],
      [JSON.stringify({ token: 'x'.repeat(10_000) }), JSON_TYPE],
      [JSON.stringify({ email: '\u0000@\u0000.com', password: '\ud800', name: '\u202e' }), JSON_TYPE],
      [
        JSON.stringify({ email: `${'a'.repeat(300)}@example.com`, password: 'p'.repeat(5000), name: 'n' }),
        JSON_TYPE,
      ],
      [JSON.stringify({ a: { b: { c: { d: { e: [1, [2, [3, [4]]]] } } } } }), JSON_TYPE],
      [Buffer.from([0xff, 0xfe, 0x00, 0x7b]), JSON_TYPE],
      ['{}', { 'content-type': 'application/json; charset=latin1' }],
      ['{}', { 'content-type': 'application/json', 'content-length': '99999' }],
      ['{}', { 'content-type': '' }],
      ['{}', {}],
    ]
    for (const route of POST_ROUTES) {
      for (const [payload, headers] of payloads) {
        const reply = await post(`/api/auth${route}`, payload, headers)
        expect(
          reply.status,
          `${route} ${String(payload).slice(0, 60)} ${JSON.stringify(headers)}`,
        ).toBeLessThan(500)
        expect(reply.status).toBeGreaterThanOrEqual(200)
        if (reply.status >= 400)
          expect(reply.json).toMatchObject({ code: expect.any(String), message: expect.any(String) })
      }
    }
  })

  it('never answers 500 to odd queries, methods and headers', async () => {
    const requests: InjectOptions[] = [
      { method: 'GET', url: '/api/auth/get-session?disableRefresh=true&disableRefresh=false' },
      { method: 'GET', url: '/api/auth/get-session?disableCookieCache[]=1' },
      { method: 'GET', url: '/api/auth/get-session?%E0%A4%A=1' },
      { method: 'GET', url: '/api/auth/get-session', headers: { cookie: 'better-auth.session_token=%' } },
      {
        method: 'GET',
        url: '/api/auth/get-session',
        headers: { cookie: `better-auth.session_token=${'a'.repeat(8000)}` },
      },
      {
        method: 'GET',
        url: '/api/auth/list-sessions',
        headers: { cookie: '=;;=;better-auth.session_token' },
      },
      { method: 'GET', url: '/api/auth/sign-up/email' },
      { method: 'PUT', url: SIGN_UP, payload: VALID_SIGN_UP },
      { method: 'DELETE', url: '/api/auth/sign-out' },
      { method: 'GET', url: `/api/auth/error?error=${'e'.repeat(5000)}` },
      { method: 'GET', url: '/api/auth/error?error=a&error=b' },
      { method: 'GET', url: '/api/auth/%2e%2e/%2e%2e/etc/passwd' },
    ]
    for (const request of requests) {
      const reply = await send(request)
      expect(reply.status, `${request.method} ${String(request.url).slice(0, 80)}`).toBeLessThan(500)
    }
  })
})

describe('/ok, /error and unknown paths (pglite)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ env: { BASE_URL: 'https://app.example.com' } })
  })
  afterAll(() => tessera.cleanup())

  const get = (path: string) => tessera.api.request('GET', path)

  it('GET /ok answers {ok:true}', async () => {
    const reply = await get('/ok')
    expect(reply.status).toBe(200)
    expect(reply.json).toEqual({ ok: true })
  })

  it('GET /error shows the error code and links back to the application', async () => {
    const reply = await get('/error?error=state_not_found')
    expect(reply.status).toBe(200)
    expect(reply.headers['content-type']).toMatch(/^text\/html/)
    expect(reply.body).toMatch(/<code>state_not_found<\/code>/)
    expect(reply.body).toContain('href="https://app.example.com/"')
    const bare = await get('/error')
    expect(bare.status).toBe(200)
    expect(bare.body).toContain('href="https://app.example.com/"')
  })

  it('GET /error does not reflect markup', async () => {
    const attacks = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "javascript:alert('x')"]
    for (const attack of attacks) {
      const reply = await get(`/error?error=${encodeURIComponent(attack)}`)
      expect(reply.status).toBeLessThan(500)
      expect(reply.body).not.toMatch(/<script|onerror|alert|javascript:/i)
    }
  })

  it('answers unknown paths under /api/auth with 404 {code:NOT_FOUND, message:"Not Found"}', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['POST', '/nope'],
      ['GET', '/sign-up/email/extra'],
      ['POST', '/sign-in/anonymous'],
    ] as const) {
      const reply = await tessera.api.request(method, path, method === 'POST' ? {} : undefined)
      expect(reply.status, path).toBe(404)
      expect(reply.json).toEqual({ code: 'NOT_FOUND', message: 'Not Found' })
    }
  })
})

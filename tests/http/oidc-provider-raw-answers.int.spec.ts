/// The token, introspection and revocation endpoints' answers as they go on the wire (issue 35):
/// status, every header with its value, and the body's fields. These routes run every hook of the
/// API scope (origin check, NUL guard, free-form bound, trusted URLs, no-store, frame guard,
/// read-your-writes, the login hand-off); a hook made cheaper must leave each answer as it was.

import { request } from 'node:http'
import * as oauth from 'oauth4webapi'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestTessera } from '../support/tessera.js'
import {
  authorizeIn,
  REDIRECT_URI,
  registerClient,
  signedUp,
  startProvider,
} from '../support/tessera-as-provider.js'

type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** A form POST over node:http, its headers as Node read them (fetch would merge and drop some). */
const post = (tessera: TestTessera, path: string, fields: Record<string, string>, headers = {}) =>
  new Promise<RawAnswer>((resolve, reject) => {
    const body = new URLSearchParams(fields).toString()
    const sent = request(
      `${tessera.baseUrl}/api/auth${path}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
      },
    )
    sent.on('error', reject)
    sent.end(body)
  })

const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
})

/** Every header but the date, which changes; the length checked against the body instead. */
const headersOf = ({ headers, body }: RawAnswer) => {
  const { date, 'content-length': length, ...rest } = headers
  expect(date).toEqual(expect.any(String))
  expect(Number(length)).toBe(Buffer.byteLength(body))
  return rest
}

const common = {
  'cache-control': 'no-store',
  connection: 'keep-alive',
  'keep-alive': 'timeout=72',
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
}
const json = { 'content-type': 'application/json; charset=utf-8' }
const okHeaders = { ...common, ...json, pragma: 'no-cache' }
const invalidClient = { ...common, ...json, pragma: 'no-cache', 'www-authenticate': 'Basic' }

describe('the OpenID provider token endpoints, byte for byte', () => {
  let tessera: TestTessera
  let client: { client_id: string; client_secret?: string }
  let machine: { client_id: string; client_secret?: string }

  beforeAll(async () => {
    tessera = await startProvider()
    client = await registerClient(tessera)
    machine = await registerClient(tessera, { grant_types: ['client_credentials'], redirect_uris: [] })
  })
  afterAll(() => tessera?.cleanup())

  it('answers introspection: active, inactive, a wrong secret and a missing token', async () => {
    const auth = basic(machine.client_id, machine.client_secret ?? '')
    const issued = await post(tessera, '/oauth2/token', { grant_type: 'client_credentials' }, auth)
    expect([issued.status, headersOf(issued)]).toEqual([200, okHeaders])
    const token = (JSON.parse(issued.body) as { access_token: string }).access_token

    const active = await post(tessera, '/oauth2/introspect', { token }, auth)
    expect([active.status, headersOf(active)]).toEqual([200, okHeaders])
    expect(Object.keys(JSON.parse(active.body))).toEqual([
      'active',
      'token_type',
      'iss',
      'sub',
      'aud',
      'client_id',
      'scope',
      'jti',
      'iat',
      'exp',
    ])
    expect(JSON.parse(active.body)).toMatchObject({
      active: true,
      token_type: 'Bearer',
      sub: machine.client_id,
    })
    // Again: the second check of one token takes the remembered path (verifier.ts).
    const again = await post(tessera, '/oauth2/introspect', { token }, auth)
    expect([again.status, headersOf(again), again.body]).toEqual([200, okHeaders, active.body])

    const inactive = await post(tessera, '/oauth2/introspect', { token: `${token}x` }, auth)
    expect([inactive.status, headersOf(inactive), inactive.body]).toEqual([
      200,
      okHeaders,
      '{"active":false}',
    ])

    const wrong = await post(tessera, '/oauth2/introspect', { token }, basic(machine.client_id, 'wrong'))
    expect([wrong.status, headersOf(wrong), wrong.body]).toEqual([
      401,
      invalidClient,
      '{"error":"invalid_client","error_description":"invalid client credentials"}',
    ])

    const missing = await post(tessera, '/oauth2/introspect', {}, auth)
    expect([missing.status, headersOf(missing), missing.body]).toEqual([
      400,
      { ...common, ...json, pragma: 'no-cache' },
      '{"error":"invalid_request","error_description":"token is required"}',
    ])

    const nul = await post(tessera, '/oauth2/introspect', { token: 'a\u0000b' }, auth)
    expect([nul.status, headersOf(nul), nul.body]).toEqual([
      400,
      { ...common, ...json },
      '{"code":"VALIDATION_ERROR","message":"Invalid body parameters: [body.token] must not contain a NUL character"}',
    ])
  })

  it('answers a code exchange, a refresh and a revocation', async () => {
    const verifier = oauth.generateRandomCodeVerifier()
    const { browser } = await signedUp(tessera)
    const url = new URL(`${tessera.baseUrl}/api/auth/oauth2/authorize`)
    const params = {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'openid email offline_access',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'st',
    }
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
    const code = (await authorizeIn(browser, url)).searchParams.get('code') ?? ''
    const auth = basic(client.client_id, client.client_secret ?? '')

    const exchange = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }
    const exchanged = await post(tessera, '/oauth2/token', exchange, auth)
    expect([exchanged.status, headersOf(exchanged)]).toEqual([200, okHeaders])
    const tokens = JSON.parse(exchanged.body) as Record<string, unknown>
    expect(Object.keys(tokens)).toEqual([
      'access_token',
      'token_type',
      'expires_in',
      'expires_at',
      'scope',
      'refresh_token',
      'id_token',
    ])

    const refreshed = await post(
      tessera,
      '/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token) },
      auth,
    )
    expect([refreshed.status, headersOf(refreshed)]).toEqual([200, okHeaders])

    const reused = await post(tessera, '/oauth2/token', exchange, auth)
    expect([reused.status, headersOf(reused)]).toEqual([400, { ...common, ...json, pragma: 'no-cache' }])

    const access = String((JSON.parse(refreshed.body) as { access_token: string }).access_token)
    const revoked = await post(tessera, '/oauth2/revoke', { token: access }, auth)
    expect([revoked.status, headersOf(revoked), revoked.body]).toEqual([200, okHeaders, 'null'])
  })
})

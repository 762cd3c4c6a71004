/// A test "browser" over `inject`: a cookie jar per instance, JSON in and out, redirects reported.
/// The test client adds our own Origin to POSTs with cookies, as a browser on the app would.

import { expect } from 'vitest'
import { cookieJar } from './cookies.js'
import type { TestTessera } from './tessera.js'

export type Browser = ReturnType<typeof browserFor>

export type SessionAnswer = {
  session: { id: string; token: string; expiresAt: string; userId: string }
  user: { id: string }
}

export const browserFor = (tessera: TestTessera, headers: Record<string, string> = {}) => {
  const jar = cookieJar()
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const cookie = jar.header()
    const response = await tessera.api.request(method, path, body, {
      ...headers,
      ...(cookie ? { cookie } : {}),
    })
    jar.store(response.headers['set-cookie'])
    return { ...response, setCookie: [response.headers['set-cookie'] ?? []].flat().map(String) }
  }
  return {
    jar,
    call,
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body ?? {}),
    session: async (query = '') => (await call('GET', `/get-session${query}`)).json as SessionAnswer | null,
    /** Follows a link from a mail: only its path and query matter to the server. */
    open: (link: string) => {
      const url = new URL(link)
      return call('GET', `${url.pathname.replace(/^\/api\/auth/, '')}${url.search}`)
    },
  }
}

/** Devices that sign up or sign in with one password and keep their token. */
export const devicesFor = (tessera: () => TestTessera, password: string) => {
  const enter = async (path: string, body: Record<string, unknown>) => {
    const device = browserFor(tessera())
    const response = await device.call('POST', path, { password, ...body })
    expect(response.status).toBe(200)
    return { ...device, token: (response.json as { token: string }).token }
  }
  return {
    signedUp: (email = 'ada@example.com', extra: Record<string, unknown> = {}) =>
      enter('/sign-up/email', { name: 'Ada', email, ...extra }),
    signedIn: (email = 'ada@example.com', extra: Record<string, unknown> = {}) =>
      enter('/sign-in/email', { email, ...extra }),
  }
}

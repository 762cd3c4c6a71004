/// A test "browser" over `inject`: a cookie jar per instance, JSON in and out, redirects reported.

import { cookieJar } from './cookies.js'
import type { TestTessera } from './tessera.js'

export type Browser = ReturnType<typeof browserFor>

export const browserFor = (tessera: TestTessera, headers: Record<string, string> = {}) => {
  const jar = cookieJar()
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const cookie = jar.header()
    const response = await tessera.api.request(method, path, body, {
      ...headers,
      ...(cookie ? { cookie } : {}),
    })
    jar.store(response.headers['set-cookie'])
    return response
  }
  return {
    jar,
    call,
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body ?? {}),
    /** Follows a link from a mail: only its path and query matter to the server. */
    open: (link: string) => {
      const url = new URL(link)
      return call('GET', `${url.pathname.replace(/^\/api\/auth/, '')}${url.search}`)
    },
  }
}

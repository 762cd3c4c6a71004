/// What a browser does for better-auth's client in the compatibility tests: it keeps the cookies
/// Tessera sets and sends them back, with the app's own Origin (Tessera checks it on POSTs).

import { cookieJar } from '../support/cookies.js'
import type { TestTessera } from '../support/tessera.js'

export const browserCookies = (tessera: TestTessera) => {
  const jar = cookieJar()
  const fetchOptions = {
    onRequest(context: { headers: Headers }) {
      context.headers.set('origin', tessera.ctx.config.baseOrigin)
      const cookie = jar.header()
      if (cookie) context.headers.set('cookie', cookie)
    },
    onResponse(context: { response: Response }) {
      jar.store(context.response.headers.getSetCookie())
    },
  }
  return { jar, fetchOptions }
}

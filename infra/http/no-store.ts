/// `Cache-Control: no-store` on every answer that is someone's: to a request carrying a session
/// cookie, a bearer token or an API key, or an answer that sets a session cookie. Set once here
/// rather than route by route, where one was forgotten (list-sessions, api-key/list): a shared or
/// browser cache must never keep a person's sessions, keys or tokens for the next caller.

import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify'

const SESSION_COOKIE = 'session_token'
const API_KEY_HEADER = 'x-api-key'

const carriesCredentials = (request: FastifyRequest): boolean =>
  request.headers.authorization !== undefined ||
  request.headers[API_KEY_HEADER] !== undefined ||
  Object.keys(request.cookies ?? {}).some((name) => name.includes(SESSION_COOKIE))

const setsSessionCookie = (reply: FastifyReply): boolean => {
  const cookies = reply.getHeader('set-cookie')
  const all = Array.isArray(cookies) ? cookies : [cookies]
  return all.some((cookie) => typeof cookie === 'string' && cookie.includes(`${SESSION_COOKIE}`))
}

export const noStoreHook: onSendHookHandler<unknown> = (request, reply, payload, done) => {
  // An answer the same for everyone (the JWKS) may stay cacheable whoever asks.
  const current = reply.getHeader('cache-control')
  const shared = typeof current === 'string' && current.startsWith('public')
  if (!shared && (carriesCredentials(request) || setsSessionCookie(reply)))
    reply.header('cache-control', 'no-store')
  done(null, payload)
}

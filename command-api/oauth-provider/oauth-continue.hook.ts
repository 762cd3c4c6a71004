/// The authorization goes on after the person signs in or up on the login page: a sign-in or
/// sign-up whose body carries the signed request (`oauth_query`, as better-auth's
/// `oauthProviderClient` adds it) answers `{redirect: true, url}` towards the consent page or back
/// to the client with a code, as better-auth's oauth-provider does, instead of the usual answer.
/// The signature is checked before the sign-in runs (a bad one is refused and nobody signs in);
/// the answer is rewritten once the route has signed the person in. The routes only accept the
/// field; nothing else of theirs changes.
/// Sign-ins that finish in another request (a mailed link, a social provider, an organization's
/// identity provider) carry the request the way better-auth's plugin carries the social one, in
/// the flow itself: their `callbackURL` becomes the authorization endpoint with the request, so the
/// browser lands there signed in and the authorization goes on (continuation.ts).

import type { FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify'
import { isDomainError } from '../../domain/shared/errors.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { authorize } from './authorize.js'
import { oauthQueryOf } from './authorize.routes.js'
import { continuationUrl, finishesElsewhere } from './continuation.js'
import type { OAuthContext } from './oauth-context.js'

const verified = new WeakMap<FastifyRequest, URLSearchParams>()

const oauthQueryIn = (request: FastifyRequest): string | undefined => {
  const body = request.body as { oauth_query?: unknown } | undefined
  return request.method === 'POST' && typeof body?.oauth_query === 'string' ? body.oauth_query : undefined
}

/** Where a sign-in finishes: a first factor, or the second step after one (as better-auth, whose hook matches any route). */
const finishesSignIn = (url: string): boolean =>
  url.includes('/sign-') ||
  url.includes('/two-factor/verify-') ||
  url.includes('/passkey/verify-authentication')

/** Signed-in answers carry the new session's token (`token`, or the passkey's `session.token`); nothing else is continued. */
const tokenOf = (payload: unknown): string | null => {
  if (typeof payload !== 'string') return null
  try {
    const json = JSON.parse(payload) as { token?: unknown; session?: { token?: unknown } }
    if (typeof json.token === 'string') return json.token
    return typeof json.session?.token === 'string' ? json.session.token : null
  } catch {
    return null
  }
}

// Callback hooks: they run on every API request, and almost none signs in with a signed request;
// an async hook would cost each a promise and a microtask turn for nothing.
export const oauthContinueHooks = (ctx: OAuthContext) => {
  const preHandler: preHandlerHookHandler = (request, reply, done) => {
    const oauthQuery = oauthQueryIn(request)
    if (oauthQuery === undefined || !finishesSignIn(request.url)) return done()
    try {
      const query = oauthQueryOf(ctx, oauthQuery)
      verified.set(request, query)
      if (finishesElsewhere(request.url)) {
        const body = request.body as { callbackURL?: string; newUserCallbackURL?: string }
        body.callbackURL = continuationUrl(ctx.config, query)
        body.newUserCallbackURL = body.callbackURL
      }
    } catch (error) {
      if (!isDomainError(error)) throw error
      // Answered here: the route does not run, and a callback hook that answers calls no `done`.
      reply
        .status(400)
        .send({ code: 'INVALID_SIGNATURE', message: 'invalid_signature', error: 'invalid_signature' })
      return
    }
    done()
  }
  /** The answer that goes on with the authorization; undefined to keep the route's. */
  const continued = async (
    request: FastifyRequest,
    reply: FastifyReply,
    query: URLSearchParams,
    token: string,
  ) => {
    const lookup = await ctx.sessions.lookup(token, ctx.clock())
    if (lookup.status !== 'valid') return undefined
    const url = await authorize(ctx, originOf(request), new URLSearchParams(query), lookup.found, {
      justSignedIn: true,
    })
    reply.removeHeader('location')
    reply.header('content-type', 'application/json; charset=utf-8')
    return JSON.stringify({ redirect: true, url })
  }
  const onSend: onSendHookHandler = (request, reply, payload, done) => {
    const query = verified.get(request)
    if (!query || reply.statusCode !== 200) return done(null, payload)
    const token = tokenOf(payload)
    if (!token) return done(null, payload)
    continued(request, reply, query, token).then((answer) => done(null, answer ?? payload), done)
  }
  return { preHandler, onSend }
}

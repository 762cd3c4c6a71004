/// Where a sign-in that finishes in another request (a mailed link followed later, a social or
/// SSO provider's callback) sends the browser when it began on the OpenID provider's login page:
/// the authorization endpoint with the request it carried, so the authorization goes on there
/// with the new session, as better-auth's oauth-provider goes on after its social callback.

import type { Config } from '../../infra/config/config.js'
import { issuerOf } from './oauth-context.js'
import { signQuery } from './signed-query.js'

/** The sign-ins whose session starts in a later request, at their `callbackURL`'s door. */
const ELSEWHERE = ['/sign-in/magic-link', '/sign-in/social', '/sign-in/sso']

export const finishesElsewhere = (url: string): boolean => {
  const path = url.split('?')[0] ?? ''
  return ELSEWHERE.some((route) => path.endsWith(route))
}

/**
 * The authorization request, verified, back at the authorization endpoint. What the person just
 * did meets `prompt=login`/`select_account` and `max_age` (the plugin drops them after a sign-in
 * too); left in, they would send the freshly signed-in person back to the login page.
 */
export const continuationUrl = (
  config: Pick<Config, 'baseUrl' | 'basePath'>,
  query: URLSearchParams,
): string => {
  const params = new URLSearchParams(query)
  const prompts = (params.get('prompt') ?? '')
    .split(' ')
    .filter((prompt) => prompt !== '' && prompt !== 'login' && prompt !== 'select_account')
  if (prompts.length > 0) params.set('prompt', prompts.join(' '))
  else params.delete('prompt')
  params.delete('max_age')
  return `${issuerOf(config)}/oauth2/authorize?${params}`
}

/**
 * Where a mailed link sends a person who still owes their second step: the portal's two-factor
 * page, carrying the authorization request again (signed, as the login page got it) when the
 * link was begun on the login page, so that the second step goes on with it. Signing adds nothing
 * the authorization endpoint would not sign for anyone: the request is checked again (client,
 * redirect URI, scopes) when the second step continues it.
 */
export const secondStepUrl = (
  ctx: { config: Config; clock: () => Date },
  callbackURL: string | undefined,
): string => {
  const { config } = ctx
  const page = new URL('/two-factor', config.baseUrl)
  const authorizeAt = `${issuerOf(config)}/oauth2/authorize`
  if (!config.oauthProvider.enabled || !callbackURL?.startsWith(`${authorizeAt}?`)) return page.toString()
  const query = new URL(callbackURL).searchParams
  return `${page}?${signQuery(query, config.secret, ctx.clock(), config.oauthProvider.codeExpiresIn)}`
}

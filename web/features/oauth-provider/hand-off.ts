/// The hand-off of an application's authorization through the portal's ways in: on the OpenID
/// provider's login page each sign-in sends the page's signed request (`oauth_query`, as
/// better-auth's `oauthProviderClient` adds it), and the answer, once signed in, is the way on
/// (`{redirect: true, url}`: the consent page or the application) instead of the session.

export type WayOn = { redirect: boolean; url: string }

/** The body with the signed request added, when there is one. */
export const withOAuthQuery = <Body extends object>(body: Body, oauthQuery: string | undefined) =>
  oauthQuery ? { ...body, oauth_query: oauthQuery } : body

export const isWayOn = (answer: unknown): answer is WayOn =>
  typeof answer === 'object' &&
  answer !== null &&
  (answer as Partial<WayOn>).redirect === true &&
  typeof (answer as Partial<WayOn>).url === 'string'

/** Leaves the portal for where the authorization goes on (a full navigation). */
export const goOn = (answer: WayOn) => window.location.assign(answer.url)

/** Where a sign-in started here comes back to when it fails: the login page, its request intact. */
export const loginPageWith = (oauthQuery: string) => `/oauth/login?${oauthQuery}`

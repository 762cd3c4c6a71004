/// Where a browser flow that failed sends the person (social, SSO over OIDC and SAML alike): the
/// error page or the app's errorCallbackURL, with `error` and `error_description` in its query as
/// better-auth puts them. A relative URL stays relative, so the app's own origin serves it.

const PLACEHOLDER_ORIGIN = 'http://relative.invalid'

export const withError = (url: string, code: string, description?: string): string => {
  const target = new URL(url, PLACEHOLDER_ORIGIN)
  target.searchParams.set('error', code)
  if (description) target.searchParams.set('error_description', description)
  return target.origin === PLACEHOLDER_ORIGIN ? `${target.pathname}${target.search}` : target.toString()
}

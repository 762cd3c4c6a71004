/// The relay cookie on a cross-site POST the browser would not send it on. The IdP posts its answer
/// to the ACS from its own site. On https the relay cookie is SameSite=None (Secure) and comes
/// along; on plain http (local development) browsers refuse None without Secure, so the cookie is
/// Lax and a Lax cookie stays home on a cross-site POST. Rather than drop the check there (as
/// better-auth's plugin skips it everywhere), the ACS answers such a POST once with a page that posts
/// the same fields again from our own origin: a same-site POST, which carries the Lax cookie. An
/// answer posted into someone else's browser still finds no cookie of its RelayState there and is
/// refused, so the login-CSRF protection holds on http too.

import { createHash } from 'node:crypto'
import type { FastifyReply } from 'fastify'

/** Marks the second POST, so a browser without the cookie is refused rather than sent round again. */
export const BOUNCE_FIELD = 'TesseraRelayBounce'

const SUBMIT = 'document.forms[0].submit();'
const SUBMIT_HASH = createHash('sha256').update(SUBMIT).digest('base64')
// Only our one script runs, and the form may post only to us.
const CSP = `default-src 'none'; script-src 'sha256-${SUBMIT_HASH}'; form-action 'self'; frame-ancestors 'none'`

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** True for the IdP's first POST (with a RelayState) that came without the relay cookie. */
export const needsSameSiteBounce = (input: { cookie: string | undefined; bounced: unknown }): boolean =>
  !input.cookie && input.bounced === undefined

/** The page that posts the IdP's fields again to `action` (our ACS) from our origin. */
export const sendRelayBounce = (
  reply: FastifyReply,
  action: string,
  fields: { SAMLResponse: string; RelayState: string },
) => {
  const input = (name: string, value: string) =>
    `<input type="hidden" name="${name}" value="${escapeHtml(value)}"/>`
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Signing in…</title></head><body><form method="post" action="${escapeHtml(action)}">${input('SAMLResponse', fields.SAMLResponse)}${input('RelayState', fields.RelayState)}${input(BOUNCE_FIELD, '1')}<noscript><button type="submit">Continue</button></noscript></form><script>${SUBMIT}</script></body></html>`
  return reply
    .code(200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', CSP)
    .send(html)
}

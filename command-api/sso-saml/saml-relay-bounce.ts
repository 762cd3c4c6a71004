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
// The page may show for a moment (or, without scripts, until Continue): in the portal's colours,
// readable at a phone's width, dark when the system is.
const STYLE = [
  ':root{color-scheme:light dark;--bg:#f6f8fa;--text:#1f2328;--muted:#59636e;--primary:#0969da}',
  '@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--text:#f0f6fc;--muted:#9198a1;--primary:#1f6feb}}',
  'html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.55;background:var(--bg);color:var(--text)}',
  'body{margin:0;min-height:100vh;box-sizing:border-box;padding:1.5rem;display:grid;place-items:center}',
  'main{max-width:26rem;text-align:center}h1{margin:0 0 .5rem;font-size:1.25rem;font-weight:600}',
  'p{margin:0 0 1rem;color:var(--muted)}',
  'button{font:inherit;font-weight:600;min-height:2.5rem;padding:.5rem 1rem;border:0;border-radius:8px;background:var(--primary);color:#fff;cursor:pointer}',
  'button:focus-visible{outline:2px solid var(--primary);outline-offset:2px}',
].join('')
const hashOf = (text: string) => createHash('sha256').update(text).digest('base64')
// Only our one script and our one style apply. No `form-action`: Chromium applies it to the
// redirects that follow the POST as well, and the ACS sends the browser on to the callbackURL,
// which may be another trusted origin (an application on its own port); the form's action is ours
// and the page holds nothing a visitor could inject, so there is nothing for it to guard.
const CSP = `default-src 'none'; script-src 'sha256-${hashOf(SUBMIT)}'; style-src 'sha256-${hashOf(STYLE)}'; frame-ancestors 'none'`

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
  const form = `<form method="post" action="${escapeHtml(action)}">${input('SAMLResponse', fields.SAMLResponse)}${input('RelayState', fields.RelayState)}${input(BOUNCE_FIELD, '1')}<noscript><p>Scripts are off in this browser: continue to finish signing in.</p><button type="submit">Continue</button></noscript></form>`
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>Signing in…</title><style>${STYLE}</style></head><body><main><h1>Signing you in…</h1>${form}</main><script>${SUBMIT}</script></body></html>`
  return reply
    .code(200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', CSP)
    .send(html)
}

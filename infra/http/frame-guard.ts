/// Nobody may frame Tessera's pages (clickjacking: a hidden portal under a decoy button), and the
/// portal runs no script but its own files. Every answer carries `X-Frame-Options: DENY` and, where
/// no page set a policy of its own, a `Content-Security-Policy` of `frame-ancestors 'none'`; the
/// portal's pages carry the full `PORTAL_CSP`.

import type { onSendHookHandler } from 'fastify'

/**
 * The portal's policy. The production build's index.html loads its scripts from `/assets` and has
 * none inline (checked by tests/http/hardening-32.int.spec.ts), so scripts are `'self'` only.
 * Styles allow inline: React writes `style` attributes, and styles cannot run code. Pictures come
 * from wherever a person's profile or the branding points (https).
 */
export const PORTAL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' https: data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ')

// Callback hooks here and in the other every-answer hooks (no-store, the location's encoding): an
// async one costs a promise and a turn of the microtask queue per answer for work done at once.
export const frameGuardHook: onSendHookHandler<unknown> = (_request, reply, payload, done) => {
  reply.header('x-frame-options', 'DENY')
  if (reply.getHeader('content-security-policy') === undefined)
    reply.header('content-security-policy', "frame-ancestors 'none'")
  done(null, payload)
}

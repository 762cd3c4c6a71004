/// The account mails. Each template returns the subject and both bodies; the link comes in
/// ready-made (see `buildLink`) so no template ever sees request data such as a Host header.

import { shownName } from './untrusted-text.js'

export type RenderedMail = { subject: string; text: string; html: string }

/**
 * Builds an absolute link under the configured base URL. `path` must be a relative path with a
 * single leading `/`: anything that a URL parser could read as another host (`//evil.com`,
 * `/\evil.com`, `https://evil.com`) is refused, because mail links must only ever point at us.
 * A base URL with a path (`https://example.com/accounts`) keeps it as a prefix.
 */
export const buildLink = (baseUrl: string, path: string, params: Record<string, string> = {}): string => {
  if (!isPlainAbsolutePath(path)) throw new Error(`mail link path must be a path starting with one '/'`)
  const base = new URL(baseUrl)
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('base URL must be http(s)')
  const prefix = base.pathname.replace(/\/+$/, '')
  const link = new URL(`${base.origin}${prefix}${path}`)
  // Belt and braces: whatever the path held, the link must still be on the base URL's origin.
  if (link.origin !== base.origin) throw new Error('mail link leaves the base URL origin')
  for (const [key, value] of Object.entries(params)) link.searchParams.set(key, value)
  return link.toString()
}

const isPlainAbsolutePath = (path: string): boolean =>
  path.startsWith('/') &&
  !path.startsWith('//') &&
  // Browsers and WHATWG URL treat `\` as `/` in http(s) URLs, so `/\evil.com` is a host.
  !path.includes('\\') &&
  // Query and fragment go through `params`; control characters and spaces have no place in a path.
  !/[?#\s]/.test(path) &&
  ![...path].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)

export const verifyEmail = (input: { name: string; url: string }): RenderedMail =>
  render({
    subject: 'Verify your email address',
    name: input.name,
    paragraphs: ['Please confirm that this is your email address to finish setting up your account.'],
    action: 'Verify email address',
    url: input.url,
    footer: 'If you did not create an account, you can ignore this email.',
  })

export const resetPassword = (input: { name: string; url: string }): RenderedMail =>
  render({
    subject: 'Reset your password',
    name: input.name,
    paragraphs: ['We received a request to reset the password of your account. Choose a new password here:'],
    action: 'Reset password',
    url: input.url,
    footer: 'If you did not ask for this, you can ignore this email; your password stays the same.',
  })

export const confirmEmailChange = (input: { name: string; newEmail: string; url: string }): RenderedMail =>
  render({
    subject: 'Confirm your email address change',
    name: input.name,
    paragraphs: [
      `We received a request to change the email address of your account to ${input.newEmail}.`,
      'Approve the change from this address to continue:',
    ],
    action: 'Approve email change',
    url: input.url,
    footer: 'If you did not ask for this, ignore this email and your address stays the same.',
  })

/** The second step of a verified user's email change: the current address approved, now the new one. */
export const verifyNewEmail = (input: { name: string; currentEmail: string; url: string }): RenderedMail =>
  render({
    subject: 'Verify your new email address',
    name: input.name,
    paragraphs: [
      `You approved changing the email address of your account from ${input.currentEmail} to this address.`,
      'Verify this address to finish the change; until then, you keep signing in with the old one:',
    ],
    action: 'Verify new email address',
    url: input.url,
    footer: 'If you did not ask for this, ignore this email and the account keeps its current address.',
  })

export const confirmAccountDeletion = (input: { name: string; url: string }): RenderedMail =>
  render({
    subject: 'Confirm the deletion of your account',
    name: input.name,
    paragraphs: ['We received a request to delete your account. Once deleted, it cannot be restored.'],
    action: 'Delete my account',
    url: input.url,
    footer: 'If you did not ask for this, ignore this email and your account stays as it is.',
  })

/** An invitation to an organization (organization plugin); the link opens the portal's page for it. */
export const organizationInvitation = (input: {
  inviterName: string
  inviterEmail: string
  organizationName: string
  role: string
  url: string
  validHours: number
}): RenderedMail =>
  render({
    // Names anyone may choose go to an address that never asked: quoted, one line, no link in them
    // (untrusted-text.ts), in the subject and the text alike.
    subject: `You are invited to join ${shownName(input.organizationName)}`,
    name: '',
    paragraphs: [
      `${shownName(input.inviterName)} (${input.inviterEmail}) invited you to join ${shownName(input.organizationName)} as ${input.role}.`,
      `The invitation is valid for ${input.validHours} hours. Sign in, or create an account with this email address, to accept or decline it.`,
    ],
    action: 'View the invitation',
    url: input.url,
    footer: 'If you did not expect this invitation, you can ignore this email.',
  })

/// Layout

/**
 * Every string in here is plain text: the layout escapes all of it, so no caller can forget to.
 * An empty `action` (and `url`) leaves the button out: a notice may have nothing to click.
 */
export type MailContent = {
  subject: string
  name: string
  paragraphs: string[]
  action: string
  url: string
  footer: string
}

export const render = (content: MailContent): RenderedMail => {
  if (content.action !== '') assertHttpUrl(content.url)
  return { subject: content.subject, text: renderText(content), html: renderHtml(content) }
}

// The url is ours (built by buildLink), but a `javascript:` href in a mail would be a disaster
// that escaping does not prevent, so refuse anything but http(s).
const assertHttpUrl = (url: string): void => {
  const { protocol } = new URL(url)
  if (protocol !== 'http:' && protocol !== 'https:') throw new Error('mail link must be an http(s) URL')
}

const greeting = (name: string): string => (name.trim() === '' ? 'Hello,' : `Hello ${name.trim()},`)

const renderText = (content: MailContent): string => {
  const blocks = [
    greeting(content.name),
    ...content.paragraphs,
    ...(content.action === '' ? [] : [`${content.action}: ${content.url}`]),
    content.footer,
  ]
  return `${blocks.join('\n\n')}\n`
}

const TEXT_STYLE = 'margin:0 0 16px;font-size:15px;line-height:1.5'
const SMALL_STYLE = 'margin:0 0 12px;font-size:13px;line-height:1.5;color:#52525b'
const BUTTON_STYLE =
  'display:inline-block;padding:12px 20px;border-radius:6px;background:#18181b;color:#ffffff;' +
  'font-weight:600;text-decoration:none'

const renderHtml = (content: MailContent): string => {
  const href = escapeHtml(content.url)
  const paragraphs = content.paragraphs.map((p) => `<p style="${TEXT_STYLE}">${escapeHtml(p)}</p>`)
  const button =
    content.action === ''
      ? ''
      : `<p style="margin:24px 0"><a href="${href}" style="${BUTTON_STYLE}">${escapeHtml(content.action)}</a></p>
<p style="${SMALL_STYLE}">If the button does not work, copy this link into your browser:<br>
<a href="${href}" style="color:#2563eb;word-break:break-all">${href}</a></p>
`
  return `<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(content.subject)}</title>
</head>
<body style="margin:0;padding:24px;background:#f4f4f5;color:#18181b;font-family:Helvetica,Arial,sans-serif">
<div style="max-width:480px;margin:0 auto;padding:32px;border-radius:8px;background:#ffffff">
<p style="${TEXT_STYLE}">${escapeHtml(greeting(content.name))}</p>
${paragraphs.join('\n')}
${button}<p style="${SMALL_STYLE}">${escapeHtml(content.footer)}</p>
</div>
</body>
</html>
`
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Safe in text content and in quoted attribute values alike. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c)

/// Turns a mail event into the mail itself: recipient, template and link. Links are built from the
/// configured base URL only (never from a request), in the shape better-auth uses, so clients
/// written for better-auth follow them unchanged.
///
/// What each link carries (the verify-email route interprets `purpose`):
/// - user.verification-email-requested → `{basePath}/verify-email?token=T&callbackURL=C`, to `email`;
///   T is an HS256 JWT (email-token.ts) with `{ email, purpose: 'verify-email' }`.
/// - user.password-reset-requested → `{basePath}/reset-password/T?callbackURL=C`, to `email`;
///   T = deriveToken(secret, 'password-reset', requestId), whose SHA-256 is the event's tokenHash.
/// - user.email-change-requested → `{basePath}/verify-email?token=T&callbackURL=C`, to `currentEmail`;
///   T is a JWT with `{ email: currentEmail, updateTo: newEmail, purpose: 'confirm-email-change' }`.
/// - user.email-change-confirmed → `{basePath}/verify-email?token=T&callbackURL=C`, to `newEmail`;
///   T is a JWT with `{ email: currentEmail, updateTo: newEmail, purpose: 'verify-new-email' }`, as
///   better-auth does: the verify-email route finds the user by `email` (still the current address
///   until this link is followed) and moves it to `updateTo`.
/// - user.deletion-requested → `{basePath}/delete-user/callback?token=T&callbackURL=C`, to `email`;
///   T = deriveToken(secret, 'delete-account', requestId), whose SHA-256 is the event's tokenHash.
/// C is the event's callback (`redirectTo` for a reset), or `/` when it has none.
///
/// Every JWT is issued at the event's time (`at`), not at sending time: a mail that is retried an
/// hour later is the same mail, with the same token and the same expiry.

import { deriveRecordedToken, deriveToken, type TokenPurpose } from '../../../infra/crypto/derived-tokens.js'
import { signEmailToken } from '../../../infra/crypto/email-token.js'
import type { OutgoingMail } from '../../../infra/mail/mail.js'
import {
  buildLink,
  confirmAccountDeletion,
  confirmEmailChange,
  type RenderedMail,
  resetPassword,
  verifyEmail,
  verifyNewEmail,
} from '../../../infra/mail/templates.js'
import { type MailEvent, recipientOf } from './mail-events.js'

export type MailLinkSettings = {
  /** Absolute http(s) URL of the service (config.baseUrl). */
  baseUrl: string
  /** Where the auth routes are mounted (config.basePath), e.g. `/api/auth`. */
  basePath: string
  secret: string
  /** Retired secrets (AUTH_SECRET_PREVIOUS): a request hashed under one still mails its own token. */
  previousSecrets?: readonly string[]
  /** Lifetime of the email JWTs in seconds (config.emailVerification.expiresIn). */
  emailTokenExpiresIn: number
}

export type MailContext = {
  /** How the greeting addresses the person. */
  name: string
  /** When the event was decided: the JWTs' issue time. */
  at: Date
  /** The event id: the same for every attempt at this mail. */
  idempotencyKey: string
}

export const composeMail = async (
  event: MailEvent,
  context: MailContext,
  settings: MailLinkSettings,
): Promise<OutgoingMail> => {
  const rendered = await render(event, context, settings)
  return { to: recipientOf(event), idempotencyKey: context.idempotencyKey, ...rendered }
}

const render = async (
  event: MailEvent,
  { name, at }: MailContext,
  settings: MailLinkSettings,
): Promise<RenderedMail> => {
  const link = (path: string, params: Record<string, string>) =>
    buildLink(settings.baseUrl, `${settings.basePath}${path}`, params)
  // The token whose hash the command recorded, whichever accepted secret it was made under.
  const recordedToken = (purpose: TokenPurpose, data: { requestId: string; tokenHash: string }) =>
    deriveRecordedToken(
      [settings.secret, ...(settings.previousSecrets ?? [])],
      purpose,
      data.requestId,
      data.tokenHash,
    ) ?? deriveToken(settings.secret, purpose, data.requestId)
  const jwt = (claims: Parameters<typeof signEmailToken>[1]) =>
    signEmailToken(settings.secret, claims, { now: at, expiresInSeconds: settings.emailTokenExpiresIn })
  switch (event.type) {
    case 'user.verification-email-requested': {
      const { email, callbackURL } = event.data
      const token = await jwt({ email, purpose: 'verify-email' })
      return verifyEmail({
        name,
        url: link('/verify-email', { token, callbackURL: callbackOrRoot(callbackURL) }),
      })
    }
    case 'user.password-reset-requested': {
      const token = recordedToken('password-reset', event.data)
      const callbackURL = callbackOrRoot(event.data.redirectTo)
      return resetPassword({ name, url: link(`/reset-password/${token}`, { callbackURL }) })
    }
    case 'user.email-change-requested': {
      const { currentEmail, newEmail, callbackURL } = event.data
      const token = await jwt({ email: currentEmail, updateTo: newEmail, purpose: 'confirm-email-change' })
      const url = link('/verify-email', { token, callbackURL: callbackOrRoot(callbackURL) })
      return confirmEmailChange({ name, newEmail, url })
    }
    case 'user.email-change-confirmed': {
      const { currentEmail, newEmail, callbackURL } = event.data
      const token = await jwt({ email: currentEmail, updateTo: newEmail, purpose: 'verify-new-email' })
      const url = link('/verify-email', { token, callbackURL: callbackOrRoot(callbackURL) })
      // Not the sign-up wording: this person has an account and is moving it to this address.
      return verifyNewEmail({ name, currentEmail, url })
    }
    case 'user.deletion-requested': {
      const token = recordedToken('delete-account', event.data)
      const url = link('/delete-user/callback', {
        token,
        callbackURL: callbackOrRoot(event.data.callbackURL),
      })
      return confirmAccountDeletion({ name, url })
    }
  }
}

// better-auth sends people to the site root when the request named no callback.
const callbackOrRoot = (callbackURL: string | null): string => callbackURL || '/'

/** The greeting's name: the profile name, or the part of the address before the @ when there is none. */
export const greetingName = (profileName: string | null | undefined, email: string): string => {
  const name = profileName?.trim()
  if (name) return name
  const at = email.lastIndexOf('@')
  return at > 0 ? email.slice(0, at) : email
}

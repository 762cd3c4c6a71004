/// Security notices (OWASP ASVS 5.0 V6.3.7): a mail to the account's address after its credentials
/// changed, so that a change the owner did not make does not go unnoticed. Each says what happened
/// and when, and what to do if it was not them; none carries a one-time link or a secret.

import { type RenderedMail, render } from './templates.js'

type NoticeInput = { name: string; at: Date; resetUrl: string }

const when = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`

export const passwordChangedNotice = ({ name, at, resetUrl }: NoticeInput): RenderedMail =>
  render({
    subject: 'Your password was changed',
    name,
    paragraphs: [
      `The password of your account was changed on ${when(at)}.`,
      'If this was not you, someone may have access to your account: choose a new password now.',
    ],
    action: 'Reset your password',
    url: resetUrl,
    footer: 'If you changed it yourself, you can ignore this email.',
  })

export const passwordResetNotice = ({ name, at, resetUrl }: NoticeInput): RenderedMail =>
  render({
    subject: 'Your password was reset',
    name,
    paragraphs: [
      `The password of your account was reset with a link sent to this address, on ${when(at)}. Every device signed in to the account was signed out.`,
      'If this was not you, someone may have access to your mailbox: secure it, then choose a new password.',
    ],
    action: 'Reset your password',
    url: resetUrl,
    footer: 'If you reset it yourself, you can ignore this email.',
  })

/** To the address the account had before: it no longer signs in, so the new one is not named. */
export const emailChangedNotice = ({ name, at, resetUrl }: NoticeInput): RenderedMail =>
  render({
    subject: 'The email address of your account was changed',
    name,
    paragraphs: [
      `The email address of your account was changed on ${when(at)}. This address no longer signs in to it.`,
      'If this was not you, someone may have access to your account: reset your password with the new address if you can, and contact us.',
    ],
    action: 'Reset your password',
    url: resetUrl,
    footer: 'If you changed it yourself, you can ignore this email.',
  })

/** The account is gone: there is nothing left to click, only what to do. */
export const accountDeletedNotice = ({ name, at }: Omit<NoticeInput, 'resetUrl'>): RenderedMail =>
  render({
    subject: 'Your account was deleted',
    name,
    paragraphs: [
      `Your account and its personal data were deleted on ${when(at)}.`,
      'If this was not you, someone had access to your account: secure your mailbox, and contact us.',
    ],
    action: '',
    url: '',
    footer: 'If you deleted it yourself, you can ignore this email. Thank you for having used the service.',
  })

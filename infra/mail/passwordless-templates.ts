/// The mails of passwordless sign-in: a sign-in link (magicLink) and a one-time code (emailOTP).
/// Layout and escaping as every account mail (templates.ts).

import { type RenderedMail, render } from './templates.js'

export const magicLinkMail = (input: { url: string; validMinutes: number }): RenderedMail =>
  render({
    subject: 'Your sign-in link',
    name: '',
    paragraphs: [
      `Use this link to sign in. It works once, within ${input.validMinutes} minutes.`,
      'If you have no account yet, it creates one with this email address.',
    ],
    action: 'Sign in',
    url: input.url,
    footer: 'If you did not ask for this, you can ignore this email.',
  })

export type CodePurpose = 'sign-in' | 'email-verification' | 'forget-password' | 'change-email'

const CODE_MAILS: Readonly<Record<CodePurpose, { subject: string; use: string }>> = {
  'sign-in': { subject: 'Your sign-in code', use: 'to sign in' },
  'email-verification': { subject: 'Your email verification code', use: 'to verify your email address' },
  'forget-password': { subject: 'Your password reset code', use: 'to choose a new password' },
  'change-email': {
    subject: 'Your code to change your email address',
    use: 'to move your account to this address',
  },
}

export const oneTimeCodeMail = (input: {
  code: string
  purpose: CodePurpose
  validMinutes: number
}): RenderedMail => {
  const { subject, use } = CODE_MAILS[input.purpose]
  return render({
    subject,
    name: '',
    paragraphs: [
      `Your code is ${input.code}`,
      `Enter it ${use}. It is valid for ${input.validMinutes} minutes and works once.`,
    ],
    action: '',
    url: '',
    footer: 'If you did not ask for this, you can ignore this email. Never tell this code to anyone.',
  })
}

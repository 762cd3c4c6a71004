/// The mail that carries a second-factor code. No link: the code is typed where it was asked for.

import { type RenderedMail, render } from './templates.js'

export const twoFactorCode = (input: { name: string; code: string; validMinutes: number }): RenderedMail =>
  render({
    subject: `Your sign-in code: ${input.code}`,
    name: input.name,
    paragraphs: [
      `Your verification code is ${input.code}.`,
      `It is valid for ${input.validMinutes} minutes and works once.`,
    ],
    action: '',
    url: '',
    footer: 'If you did not try to sign in, change your password: someone else knows it.',
  })

/// How email one-time code events are sealed and shown (domain/shared/event-declaration.ts). A code
/// is about the person who holds the address: the account it had when the code was asked for, or,
/// with no account yet, the address's own key (erased with whoever holds the address later). That a
/// code was mailed shows in the account's activity; guesses, uses and voids concern the code only
/// (what a used code led to, a sign-in or a new password, shows as its own event).

import type { EventDeclarations } from '../shared/event-declaration.js'
import type { EmailOtpEvent } from './email-otp.js'

const nobody = () => null

export const EMAIL_OTP_EVENT_DECLARATIONS: EventDeclarations<EmailOtpEvent> = {
  'email-otp.code-issued': {
    subject: ({ userId, addressSubject }) => userId ?? addressSubject,
    personal: ['email', 'newEmail'],
    activity: { details: ({ otpType, email }) => ({ otpType, email }) },
    invalidates: 'nothing',
  },
  'email-otp.code-refused': { subject: nobody, personal: [], activity: null, invalidates: 'nothing' },
  'email-otp.code-used': { subject: nobody, personal: [], activity: null, invalidates: 'nothing' },
  'email-otp.code-voided': { subject: nobody, personal: [], activity: null, invalidates: 'nothing' },
}

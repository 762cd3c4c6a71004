/// Whether a person may link a provider account to an account of theirs: the rules of better-auth's
/// account linking, decided by the linked-accounts decider on the `link-account` command. The edge
/// resolves the facts (does the provider vouch for the address, who holds the provider account, the
/// deployment's linking options) and puts them in the command. A sign-up that creates the account
/// with its link carries only whether the provider's options let it make new accounts; an SSO
/// registration carries none.

import { defineErrors } from '../shared/errors.js'

/** What every link a person asks for shares. */
type LinkFacts = {
  /** The provider is trusted, or says it verified the address. */
  vouched: boolean
  /** `account.accountLinking.enabled`. */
  linkingEnabled: boolean
}

export type LinkConsent =
  /** Signing in through a provider with the address of an existing user links it implicitly. */
  | (LinkFacts & {
      how: 'implicit'
      implicitLinkingDisabled: boolean
      requireLocalEmailVerified: boolean
      localEmailVerified: boolean
    })
  /**
   * A signed-in user links an account (`link-social`): by the redirect flow, or with an id token,
   * which renews an account already theirs before any other rule (better-auth's order).
   */
  | (LinkFacts & {
      how: 'link-flow' | 'id-token'
      /** The provider's address is the user's own. */
      sameEmail: boolean
      allowDifferentEmails: boolean
      /** Who holds the provider account now; null when nobody does. */
      ownerUserId: string | null
    })
  /** A new account made with the provider account (social sign-up), as the provider's options allow. */
  | {
      how: 'sign-up'
      /** The provider's `disableSignUp`. */
      signUpDisabled: boolean
      /** The provider's `disableImplicitSignUp`: a new account only when the sign-in asked for one. */
      implicitSignUpDisabled: boolean
      /** The sign-in asked to create an account (`requestSignUp`). */
      signUpRequested: boolean
    }

export const LINKING_ERRORS = defineErrors({
  /** An implicit link the options or the provider's word do not allow. */
  ACCOUNT_NOT_LINKED: [401, 'account not linked'],
  LINKING_NOT_ALLOWED: [401, 'Account not linked - linking not allowed'],
  LINKING_DIFFERENT_EMAILS_NOT_ALLOWED: [401, 'Account not linked - different emails not allowed'],
  /** The provider account is another user's. */
  ACCOUNT_LINKED_TO_ANOTHER_USER: [409, 'Social account already linked'],
  /** The provider may not make new accounts (or only when asked to, and this sign-in did not ask). */
  PROVIDER_SIGN_UP_DISABLED: [403, 'signup disabled'],
})

const fail = (code: Exclude<keyof typeof LINKING_ERRORS, 'error'>): never => {
  throw LINKING_ERRORS.error(code)
}

/** Refuses a link the rules do not allow, in better-auth's order for each way of linking. */
export const refuseDisallowedLink = (userId: string, consent: LinkConsent): void => {
  if (consent.how === 'sign-up') {
    if (consent.signUpDisabled || (consent.implicitSignUpDisabled && !consent.signUpRequested))
      fail('PROVIDER_SIGN_UP_DISABLED')
    return
  }
  if (consent.how === 'implicit') {
    const allowed =
      consent.vouched &&
      consent.linkingEnabled &&
      !consent.implicitLinkingDisabled &&
      (consent.localEmailVerified || !consent.requireLocalEmailVerified)
    if (!allowed) fail('ACCOUNT_NOT_LINKED')
    return
  }
  const takenByAnother = consent.ownerUserId !== null && consent.ownerUserId !== userId
  if (consent.how === 'id-token') {
    if (consent.ownerUserId === userId) return
    if (takenByAnother) fail('ACCOUNT_LINKED_TO_ANOTHER_USER')
  }
  if (!consent.vouched || !consent.linkingEnabled) fail('LINKING_NOT_ALLOWED')
  if (!consent.sameEmail && !consent.allowDifferentEmails) fail('LINKING_DIFFERENT_EMAILS_NOT_ALLOWED')
  if (takenByAnother) fail('ACCOUNT_LINKED_TO_ANOTHER_USER')
}

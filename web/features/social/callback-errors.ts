/// What an OAuth callback's `?error=` code means, in words for the page it lands on.

const WORDS: Record<string, string> = {
  state_not_found:
    'That sign-in link has already been used or has expired. Start again from the button below.',
  // What better-auth (and so Tessera) answers for a used, unknown or expired flow, and for a flow
  // started in another browser.
  state_mismatch:
    'That sign-in could not be finished: it was started in another browser, took too long, or was already used. Start again from this page.',
  please_restart_the_process: 'The sign-in took too long. Start again from this page.',
  no_code: 'The provider did not finish the sign-in. Try again.',
  access_denied: 'The sign-in was cancelled at the provider.',
  invalid_code: 'The provider did not accept the sign-in. Try again.',
  unable_to_get_user_info: 'The provider did not tell us who you are. Try again later.',
  email_not_found: 'The provider did not share your email address, which an account needs.',
  account_not_linked:
    'An account with this email already exists. Sign in with your password, then connect the provider from Security.',
  email_does_not_match:
    'The provider account uses a different email address from yours, so it was not connected.',
  account_already_linked_to_different_user: 'That provider account is already connected to another account.',
  unable_to_link_account:
    'The provider account could not be connected. You may already have one from this provider.',
  unable_to_create_user: 'The account could not be created. Try again.',
  signup_disabled: 'New accounts cannot be created this way.',
  oauth_provider_not_found: 'That sign-in provider is not offered here.',
  // Single sign-on's own (an organization's identity provider, back to /sign-in).
  invalid_provider:
    'Your organization’s identity provider could not be reached or did not answer as expected. Try again, or ask your administrator.',
  unable_to_assign_organization:
    'You were signed in by your organization’s identity provider, but could not be added to the organization. Ask your administrator.',
}

export const describeCallbackError = (code: string): string =>
  WORDS[code] ?? `The sign-in with the provider did not work (${code}). Try again.`

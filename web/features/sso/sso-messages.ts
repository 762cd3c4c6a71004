import { isApiError } from '../errors/api-error.js'
import { messageFor } from '../errors/messages.js'
import type { SsoIdentifier } from './sso.requests.js'

/// The refusals of `POST /sign-in/sso` in words. "No provider" speaks of the domain or the
/// organization, never of an account: the server's answer says nothing about who has one either.

export const ssoProblemFor = (error: unknown, identifier: SsoIdentifier): string => {
  if (!isApiError(error)) return messageFor(error)
  switch (error.code) {
    case 'NO_SSO_PROVIDER_FOUND':
      return 'email' in identifier
        ? `Single sign-on is not set up for ${identifier.email.split('@')[1]}. Sign in another way, or ask your organization’s administrator.`
        : 'Single sign-on is not set up for that organization. Check its short name, or sign in another way.'
    case 'PROVIDER_DOMAIN_NOT_VERIFIED':
      return 'Your organization’s single sign-on is waiting for its domain to be verified. Ask your administrator, or sign in another way for now.'
    case 'SSO_IDENTIFIER_REQUIRED':
      return 'Enter your work email address or your organization’s short name.'
    default:
      return messageFor(error)
  }
}

/** What the form checks before asking: something that can be an address or a slug. */
export const checkSsoIdentifier = (typed: string): string | null => {
  const value = typed.trim()
  if (value === '') return 'Enter your work email address or your organization’s short name.'
  if (value.includes('@') && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
    return 'Enter a valid email address, like name@example.com.'
  }
  return null
}

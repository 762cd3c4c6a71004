import { isApiError } from '../errors/api-error.js'
import { type FormErrors, placeError } from '../errors/form-errors.js'
import { messageFor } from '../errors/messages.js'

/// What a person reads when the organization routes refuse something: keyed by code, in the
/// portal's words. A code not listed here falls back to the server's own sentence when it has one
/// (better-auth's organization messages are plain English), then to the generic messages.
/** Shown in place of "Leave organization" to the only owner, and when the server refuses it. */
export const ONLY_OWNER_CANNOT_LEAVE = 'You are the only owner: make someone else an owner before you leave.'

const MESSAGES: Readonly<Record<string, string>> = {
  ORGANIZATION_ALREADY_EXISTS: 'An organization with this slug already exists. Choose another slug.',
  ORGANIZATION_SLUG_ALREADY_TAKEN: 'This slug is taken. Choose another one.',
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION: 'You are not allowed to create organizations here.',
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS:
    'You have reached the most organizations you can have. Leave or delete one first.',
  ORGANIZATION_NOT_FOUND: 'This organization does not exist any more.',
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: 'You are not a member of this organization.',
  YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION: 'You are not a member of this organization.',
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION: 'Your role does not allow changing this organization.',
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION: 'Only an owner can delete this organization.',
  MEMBER_NOT_FOUND: 'This person is no longer a member.',
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: ONLY_OWNER_CANNOT_LEAVE,
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER:
    'The organization would have no owner left. Make someone else an owner first.',
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: 'Your role does not allow removing this member.',
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER: 'Your role does not allow changing this member’s role.',
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION: 'Your role does not allow inviting people.',
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE:
    'Your role does not allow inviting someone with this role.',
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION:
    'This address already has a pending invitation. Cancel it first, or wait for an answer.',
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: 'This person is already a member.',
  INVITATION_LIMIT_REACHED: 'This organization has as many pending invitations as it may have.',
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: 'This organization is full: it has as many members as it may have.',
  YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION: 'Your role does not allow cancelling invitations.',
  INVITATION_NOT_FOUND: 'This invitation does not exist, has expired, or has already been answered.',
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION:
    'This invitation was sent to another address. Sign in with the address it was sent to.',
  EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION:
    'Verify your email address first, then come back to this invitation.',
  EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION:
    'Verify your email address first, then come back to this invitation.',
  INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION:
    'The person who invited you is no longer a member, so this invitation no longer works.',
  TEAM_ALREADY_EXISTS: 'A team with this name already exists.',
  TEAM_NOT_FOUND: 'This team does not exist any more.',
  UNABLE_TO_REMOVE_LAST_TEAM: 'This is the organization’s last team: it cannot be removed.',
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS: 'This organization has as many teams as it may have.',
  TEAM_MEMBER_LIMIT_REACHED: 'This team is full.',
  USER_IS_NOT_A_MEMBER_OF_THE_TEAM: 'This person is not in the team.',
}

/** The sentence for a failed organization request. */
export const organizationMessageFor = (error: unknown): string => {
  if (!isApiError(error)) return messageFor(error)
  const ours = MESSAGES[error.code]
  if (ours) return ours
  const generic = messageFor(error)
  // The generic text for an unknown code says only "Something went wrong (CODE)": the server's own
  // sentence tells more.
  const unknownCode = generic.startsWith('Something went wrong (') || error.status === 403
  return unknownCode && error.message && typeof error.status === 'number' && error.status < 500
    ? error.message
    : generic
}

/**
 * Places a failed organization request like any form's error (under the field its code concerns,
 * or at the top), worded by `organizationMessageFor`.
 */
export const placeOrganizationError = <Field extends string>(
  error: unknown,
  fieldOfCode: Partial<Record<string, Field>>,
  requestFields: readonly Field[] = [],
): FormErrors<Field> => {
  const placed = placeError<Field>(error, fieldOfCode, requestFields)
  if (placed.form !== null) return { form: organizationMessageFor(error), fields: {} }
  const byCode = isApiError(error) ? fieldOfCode[error.code] : undefined
  if (byCode === undefined) return placed
  const fields: Partial<Record<Field, string>> = {}
  fields[byCode] = organizationMessageFor(error)
  return { form: null, fields }
}

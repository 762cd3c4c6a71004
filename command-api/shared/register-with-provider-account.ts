/// Just-in-time registration through an outside provider (social sign-in, an organization's SSO):
/// the new user, with the claims on their address and on the provider account, and the link to that
/// account (its own stream), appended together. Either both are written or neither; an address or
/// provider account someone claimed a moment ago refuses it with the caller's own error.

import type { LinkedAccountCommand } from '../../domain/linked-accounts/linked-accounts.js'
import {
  linkedAccountClaims,
  linkedAccountsDecider,
  linkedAccountsStream,
  PROVIDER_ACCOUNT_CLAIM_SCOPE,
  providerAccountKey,
} from '../../domain/linked-accounts/linked-accounts.js'
import { type EventMetadata, metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import { userClaims, userDecider, userStream } from '../../domain/user/user.js'
import { type UniqueClaim, UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'
import { handlePart } from './handle.js'

export type LinkAccount = Extract<LinkedAccountCommand, { type: 'link-account' }>

export type ProviderRegistration = {
  userId: string
  email: string
  name: string
  image: string | null
  emailVerified: boolean
  sendVerification: boolean
  callbackURL: string | null
  providerId: string
  providerAccountId: string
  /** Claims released in the same append (a provider account left by a deleted owner). */
  releases?: readonly UniqueClaim[]
  /** The link command, as the caller words it (its tokens and account id). */
  link: LinkAccount
}

/** Appends the registration and the link; returns the user's events (for the admin grant). */
export const registerWithProviderAccount = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: ProviderRegistration,
  refused: () => Error,
): Promise<UserEvent[]> => {
  const { userId } = input
  const providerAccount: UniqueClaim = {
    op: 'claim',
    scope: PROVIDER_ACCOUNT_CLAIM_SCOPE,
    value: providerAccountKey(input.providerId, input.providerAccountId),
    owner: userId,
  }
  const register = handlePart(
    userDecider,
    userStream(userId),
    {
      type: 'register-user',
      userId,
      email: input.email,
      name: input.name,
      image: input.image,
      credential: null,
      emailVerified: input.emailVerified,
      sendVerification: input.sendVerification,
      callbackURL: input.callbackURL,
    },
    {
      metadata: metadataFor(origin, { type: 'anonymous' }, ctx.clock()),
      claims: (events) => [...(input.releases ?? []), ...userClaims(events), providerAccount],
      newStream: true,
    },
  )
  const metadata: EventMetadata = metadataFor(origin, { type: 'user', userId }, ctx.clock())
  const link = handlePart(linkedAccountsDecider, linkedAccountsStream(userId), input.link, {
    metadata,
    claims: linkedAccountClaims,
    newStream: true,
  })
  try {
    const [{ events }] = await ctx.handle.together([register, link])
    return events
  } catch (error) {
    if (error instanceof UniqueClaimConflictError) throw refused()
    throw error
  }
}

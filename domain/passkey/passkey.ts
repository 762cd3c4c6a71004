/// The passkey aggregate: one WebAuthn credential of one user, in its own stream (`passkey-<id>`).
/// The ceremony itself (challenges, signatures, COSE keys) is checked at the edge by a WebAuthn
/// library; what is decided here is what the account allows: who may rename or remove a passkey,
/// that one authenticator is registered once (store claim `passkey.credential`), and what a use
/// means for its signature counter. The public key is event data (it is not secret); the name the
/// owner gives it is personal, sealed under the owner's key.

import { AUTH_ERRORS, errorWithStatus } from '../errors.js'
import type { Decider } from '../shared/decider.js'

export const passkeyStream = (passkeyId: string): string => `passkey-${passkeyId}`

/** Claim scope: a credential id (base64url, as the authenticator made it) belongs to one passkey. */
export const PASSKEY_CREDENTIAL_CLAIM_SCOPE = 'passkey.credential'

/** What the authenticator told at registration, as better-auth keeps it. */
export type PasskeyCredential = {
  credentialId: string
  /** The COSE public key, base64 (standard alphabet, as better-auth stores it). */
  publicKey: string
  counter: number
  deviceType: 'singleDevice' | 'multiDevice'
  backedUp: boolean
  transports: string[]
  aaguid: string | null
}

/// Events

export type PasskeyEvent =
  | {
      type: 'passkey.registered'
      data: {
        passkeyId: string
        userId: string
        name: string | null
        registeredAt: string
      } & PasskeyCredential
    }
  | { type: 'passkey.renamed'; data: { passkeyId: string; userId: string; name: string; renamedAt: string } }
  | {
      type: 'passkey.deleted'
      data: { passkeyId: string; userId: string; credentialId: string; deletedAt: string }
    }
  /** A sign-in with it: the authenticator's new signature counter. */
  | {
      type: 'passkey.used'
      data: { passkeyId: string; userId: string; counter: number; backedUp: boolean; usedAt: string }
    }
  /**
   * A correctly signed assertion whose counter did not move forward: two copies of the private key
   * may exist (a cloned authenticator). The sign-in was refused.
   */
  | {
      type: 'passkey.clone-suspected'
      data: { passkeyId: string; userId: string; storedCounter: number; presentedCounter: number; at: string }
    }

/// Commands

export type PasskeyCommand =
  | ({
      type: 'register-passkey'
      passkeyId: string
      userId: string
      name: string | null
      now: string
    } & PasskeyCredential)
  | { type: 'rename-passkey'; requestedBy: string; name: string; now: string }
  | { type: 'delete-passkey'; requestedBy: string; now: string }
  /** A verified assertion: its signature checked against the stored public key, its counter not yet. */
  | { type: 'use-passkey'; counter: number; backedUp: boolean; now: string }

/// State

export type Passkey =
  | { status: 'none' }
  | { status: 'registered'; passkeyId: string; userId: string; credentialId: string; counter: number }
  | { status: 'deleted' }

const initialState = (): Passkey => ({ status: 'none' })

/// Evolve: no rules, never throws

const evolve = (state: Passkey, event: PasskeyEvent): Passkey => {
  switch (event.type) {
    case 'passkey.registered': {
      const { passkeyId, userId, credentialId, counter } = event.data
      return { status: 'registered', passkeyId, userId, credentialId, counter }
    }
    case 'passkey.used':
      return state.status === 'registered' ? { ...state, counter: event.data.counter } : state
    case 'passkey.deleted':
      return { status: 'deleted' }
    case 'passkey.renamed':
    case 'passkey.clone-suspected':
      return state
  }
}

/// Decide: every rule

const decide = (command: PasskeyCommand, state: Passkey): PasskeyEvent[] => {
  switch (command.type) {
    case 'register-passkey': {
      if (state.status !== 'none') throw AUTH_ERRORS.error('FAILED_TO_VERIFY_REGISTRATION')
      const { type: _type, now, ...data } = command
      return [{ type: 'passkey.registered', data: { ...data, registeredAt: now } }]
    }
    case 'rename-passkey': {
      // better-auth's answer for someone else's passkey, on rename: 401 with this code.
      const passkey = ownedBy(state, command.requestedBy, 'YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY')
      const { passkeyId, userId } = passkey
      return [
        { type: 'passkey.renamed', data: { passkeyId, userId, name: command.name, renamedAt: command.now } },
      ]
    }
    case 'delete-passkey': {
      const { passkeyId, userId, credentialId } = ownedBy(state, command.requestedBy, 'UNAUTHORIZED')
      return [{ type: 'passkey.deleted', data: { passkeyId, userId, credentialId, deletedAt: command.now } }]
    }
    case 'use-passkey':
      return use(command, state)
  }
}

const ownedBy = (
  state: Passkey,
  requestedBy: string,
  notYours: 'YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY' | 'UNAUTHORIZED',
): Extract<Passkey, { status: 'registered' }> => {
  if (state.status !== 'registered') throw AUTH_ERRORS.error('PASSKEY_NOT_FOUND')
  if (state.userId !== requestedBy) throw errorWithStatus(notYours, 401)
  return state
}

/**
 * WebAuthn's clone check (§6.1.1): an authenticator that counts signatures must present a counter
 * above the stored one. Both zero means it does not count (synced passkeys), which is allowed. A
 * counter that did not move forward is recorded rather than thrown, so the owner and operators see
 * the suspicion; the edge refuses the sign-in when this is what was decided.
 */
const use = (command: Extract<PasskeyCommand, { type: 'use-passkey' }>, state: Passkey): PasskeyEvent[] => {
  // Gone between the lookup and now: the same answer as an unknown credential.
  if (state.status !== 'registered') throw errorWithStatus('PASSKEY_NOT_FOUND', 401)
  const { passkeyId, userId, counter: storedCounter } = state
  const counts = storedCounter > 0 || command.counter > 0
  if (counts && command.counter <= storedCounter)
    return [
      {
        type: 'passkey.clone-suspected',
        data: { passkeyId, userId, storedCounter, presentedCounter: command.counter, at: command.now },
      },
    ]
  return [
    {
      type: 'passkey.used',
      data: { passkeyId, userId, counter: command.counter, backedUp: command.backedUp, usedAt: command.now },
    },
  ]
}

/** The sign-in a `use-passkey` decision allows; false when it recorded a suspected clone instead. */
export const useWasAccepted = (events: readonly PasskeyEvent[]): boolean =>
  events.some((event) => event.type === 'passkey.used')

/** A claim on a credential id (the store's `UniqueClaim`, described here without importing it). */
export type PasskeyClaim = { op: 'claim' | 'release'; scope: string; value: string; owner: string }

/** A registration claims its credential id; a deletion gives it back. */
export const passkeyClaims = (events: readonly PasskeyEvent[]): PasskeyClaim[] =>
  events.flatMap((event): PasskeyClaim[] => {
    if (event.type !== 'passkey.registered' && event.type !== 'passkey.deleted') return []
    const op = event.type === 'passkey.registered' ? 'claim' : 'release'
    const { credentialId, passkeyId } = event.data
    return [{ op, scope: PASSKEY_CREDENTIAL_CLAIM_SCOPE, value: credentialId, owner: passkeyId }]
  })

export const passkeyDecider: Decider<PasskeyCommand, PasskeyEvent, Passkey> = { decide, evolve, initialState }

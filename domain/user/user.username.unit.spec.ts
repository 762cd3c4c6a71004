import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { USERNAME_CLAIM_SCOPE, type UserCommand, type UserEvent, userClaims, userDecider } from './user.js'

const { given } = specFor(userDecider)

type Register = Extract<UserCommand, { type: 'register-user' }>

const register = (overrides: Partial<Register> = {}): UserCommand => ({
  type: 'register-user',
  userId: 'u1',
  email: 'ada@example.com',
  name: 'Ada',
  image: null,
  credential: null,
  sendVerification: false,
  callbackURL: null,
  ...overrides,
})

const registeredWith = (names: { username?: string; displayUsername?: string } = {}): UserEvent => ({
  type: 'user.registered',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    name: 'Ada',
    image: null,
    emailVerified: false,
    credential: null,
    ...names,
  },
})

const ada = registeredWith({ username: 'ada_l', displayUsername: 'Ada_L' })

const changed = (
  username: string | null,
  displayUsername: string | null,
  previousUsername: string | null,
): UserEvent => ({
  type: 'user.username-changed',
  data: { userId: 'u1', username, displayUsername, previousUsername },
})

describe('user: username at registration', () => {
  it('stores the username lowercased and shows it as typed', () =>
    given([])
      .when(register({ username: 'Ada_L' }))
      .then([ada]))

  it('keeps a display form given beside the username', () =>
    given([])
      .when(register({ username: 'ada_l', displayUsername: 'Ada Lovelace' }))
      .then([registeredWith({ username: 'ada_l', displayUsername: 'Ada Lovelace' })]))

  it('takes a valid displayUsername alone as the username too, and keeps an invalid one without', () => {
    given([])
      .when(register({ displayUsername: 'Ada_L' }))
      .then([ada])
    given([])
      .when(register({ displayUsername: 'Ada Lovelace' }))
      .then([registeredWith({ displayUsername: 'Ada Lovelace' })])
  })

  it('registers without a username when none is given', () =>
    given([]).when(register()).then([registeredWith()]))

  it('refuses a username that breaks the rules, before the email is looked at', () => {
    given([])
      .when(register({ username: 'ab', email: 'bad' }))
      .thenThrows('USERNAME_TOO_SHORT')
    given([])
      .when(register({ username: 'a'.repeat(31) }))
      .thenThrows('USERNAME_TOO_LONG')
    given([])
      .when(register({ username: 'ada-l' }))
      .thenThrows('INVALID_USERNAME')
    given([])
      .when(register({ username: '' }))
      .thenThrows('USERNAME_TOO_SHORT')
  })

  it('applies configured limits', () => {
    given([])
      .when(register({ username: 'ada_l', usernameLimits: { minLength: 6, maxLength: 10 } }))
      .thenThrows('USERNAME_TOO_SHORT')
    given([])
      .when(register({ username: 'a'.repeat(40), usernameLimits: { minLength: 3, maxLength: 50 } }))
      .then([registeredWith({ username: 'a'.repeat(40), displayUsername: 'a'.repeat(40) })])
  })
})

describe('user: username on the profile', () => {
  it('sets a first username; the display form stays as it was, as better-auth leaves it', () =>
    given([registeredWith()])
      .when({ type: 'update-profile', username: 'Ada_L' })
      .then([changed('ada_l', null, null)]))

  it('changes the username and its display form together', () =>
    given([ada])
      .when({ type: 'update-profile', username: 'Lovelace', displayUsername: 'Lovelace' })
      .then([changed('lovelace', 'Lovelace', 'ada_l')]))

  it('changes only the display form', () =>
    given([ada])
      .when({ type: 'update-profile', displayUsername: 'ADA_L' })
      .then([changed('ada_l', 'ADA_L', 'ada_l')]))

  it('records nothing when nothing changes', () => {
    given([ada]).when({ type: 'update-profile', username: 'ADA_L' }).then([])
    given([ada]).when({ type: 'update-profile', username: 'ada_l', displayUsername: 'Ada_L' }).then([])
  })

  it('changes the name and the username in one update', () =>
    given([ada])
      .when({ type: 'update-profile', name: 'Ada L.', username: 'lovelace' })
      .then([
        { type: 'user.profile-updated', data: { userId: 'u1', name: 'Ada L.' } },
        changed('lovelace', 'Ada_L', 'ada_l'),
      ]))

  it('refuses the whole update when the username breaks the rules', () => {
    given([ada]).when({ type: 'update-profile', name: 'X', username: 'no' }).thenThrows('USERNAME_TOO_SHORT')
    given([ada]).when({ type: 'update-profile', username: 'ada l' }).thenThrows('INVALID_USERNAME')
    given([ada])
      .when({ type: 'update-profile', username: 'lovelace', usernameLimits: { minLength: 3, maxLength: 5 } })
      .thenThrows('USERNAME_TOO_LONG')
  })

  it('remembers the username for the deletion, so its claim can be given up', () => {
    given([ada, changed('lovelace', 'Lovelace', 'ada_l')])
      .when({ type: 'delete-user', proof: { kind: 'verified' } })
      .then([
        { type: 'user.deleted', data: { userId: 'u1', email: 'ada@example.com', username: 'lovelace' } },
      ])
    given([registeredWith()])
      .when({ type: 'delete-user', proof: { kind: 'verified' } })
      .then([{ type: 'user.deleted', data: { userId: 'u1', email: 'ada@example.com' } }])
  })
})

describe('user: username claims', () => {
  const usernameClaims = (events: UserEvent[]) =>
    userClaims(events)
      .filter((claim) => claim.scope === USERNAME_CLAIM_SCOPE)
      .map(({ op, value }) => `${op} ${value}`)

  it('claims at registration, moves the claim on a change and gives it up on deletion', () => {
    expect(usernameClaims([ada])).toEqual(['claim ada_l'])
    expect(usernameClaims([registeredWith()])).toEqual([])
    expect(usernameClaims([changed('lovelace', null, 'ada_l')])).toEqual(['release ada_l', 'claim lovelace'])
    expect(usernameClaims([changed('ada_l', null, null)])).toEqual(['claim ada_l'])
    expect(usernameClaims([changed('ada_l', 'ADA_L', 'ada_l')])).toEqual([])
    const deleted: UserEvent = {
      type: 'user.deleted',
      data: { userId: 'u1', email: 'ada@example.com', username: 'ada_l' },
    }
    expect(usernameClaims([deleted])).toEqual(['release ada_l'])
    expect(userClaims([deleted]).map((claim) => claim.owner)).toEqual(['u1', 'u1'])
  })
})

describe("user: an operator's creation, with the claims the caller read", () => {
  const taken = (email: boolean, username: boolean) => ({ inUse: { email, username } })

  it('refuses an address in use before the username is judged', () => {
    given([])
      .when(register({ username: 'a', ...taken(true, true) }))
      .thenThrows('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')
  })

  it("refuses a username that breaks the rules before asking whether it is someone else's", () => {
    given([])
      .when(register({ username: 'a', ...taken(false, true) }))
      .thenThrows('USERNAME_TOO_SHORT', { status: 400 })
  })

  it('refuses a username in use', () => {
    given([])
      .when(register({ username: 'ada_l', ...taken(false, true) }))
      .thenThrows('USERNAME_IS_ALREADY_TAKEN', { status: 400 })
  })

  it('registers when neither is in use', () => {
    given([])
      .when(register({ username: 'Ada_L', ...taken(false, false) }))
      .then([ada])
  })
})

describe("user: a person's own sign-up, with the claims the caller read and the password it measured", () => {
  const policy = { min: 8, max: 128, rejectCommon: true }
  const signUp = (
    overrides: Partial<Register> & { inUse?: { email: boolean; username: boolean } },
    password = { length: 12, common: false },
  ) => register({ signUp: { password, passwordPolicy: policy }, ...overrides })

  it('refuses a broken username first, whatever else is wrong', () => {
    given([])
      .when(
        signUp(
          { username: 'a', email: 'nope', inUse: { email: true, username: true } },
          { length: 1, common: true },
        ),
      )
      .thenThrows('USERNAME_TOO_SHORT', { status: 400 })
  })

  it('refuses a username in use before the address is judged', () => {
    given([])
      .when(signUp({ username: 'ada_l', email: 'nope', inUse: { email: true, username: true } }))
      .thenThrows('USERNAME_IS_ALREADY_TAKEN', { status: 400 })
  })

  it('refuses a malformed address before the password', () => {
    given([])
      .when(signUp({ email: 'nope', inUse: { email: false, username: false } }, { length: 1, common: false }))
      .thenThrows('INVALID_EMAIL')
  })

  it('refuses the password by the policy before saying the address is taken', () => {
    given([])
      .when(signUp({ inUse: { email: true, username: false } }, { length: 7, common: false }))
      .thenThrows('PASSWORD_TOO_SHORT')
    given([])
      .when(signUp({ inUse: { email: true, username: false } }, { length: 129, common: false }))
      .thenThrows('PASSWORD_TOO_LONG')
    given([])
      .when(signUp({ inUse: { email: true, username: false } }, { length: 12, common: true }))
      .thenThrows('PASSWORD_COMPROMISED')
  })

  it('refuses an address in use with 422, as sign-up/email answers', () => {
    given([])
      .when(signUp({ inUse: { email: true, username: false } }))
      .thenThrows('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', { status: 422 })
  })

  it('registers when nothing is in use and the password meets the policy', () => {
    given([])
      .when(
        signUp({ username: 'Ada_L', email: ' Ada@Example.com ', inUse: { email: false, username: false } }),
      )
      .then([ada])
  })
})

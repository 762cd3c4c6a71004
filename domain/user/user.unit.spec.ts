import { describe, it } from 'vitest'
import { specFor } from '../shared/given-when-then.js'
import { type UserCommand, type UserEvent, userDecider } from './user.js'

const { given } = specFor(userDecider)

const register = (overrides: Partial<Extract<UserCommand, { type: 'register-user' }>> = {}): UserCommand => ({
  type: 'register-user',
  userId: 'u1',
  email: 'Ada@Example.COM ',
  name: ' Ada ',
  image: null,
  credential: { accountId: 'u1', passwordHash: 'salt:hash' },
  ...overrides,
})

const registered: UserEvent = {
  type: 'user.registered',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    name: 'Ada',
    image: null,
    emailVerified: false,
    credential: { accountId: 'u1', passwordHash: 'salt:hash' },
  },
}

describe('user: register', () => {
  it('registers with a lowercased email, a trimmed name and an unverified email', () => {
    given([]).when(register()).then([registered])
  })

  it('refuses a malformed email', () => {
    for (const email of ['', 'no-at-sign', 'a@b', 'a b@example.com', 'a@@example.com', '.a@example.com'])
      given([]).when(register({ email })).thenThrows('INVALID_EMAIL')
  })

  it('refuses to register the same user twice', () => {
    given([registered]).when(register()).thenThrows('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')
  })
})

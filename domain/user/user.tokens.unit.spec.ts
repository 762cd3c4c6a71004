import { describe, expect, it } from 'vitest'
import { MAX_OUTSTANDING_TOKENS } from './user.decide.js'
import { type UserCommand, type UserEvent, userDecider } from './user.js'

const registered: UserEvent = {
  type: 'user.registered',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    name: 'Ada',
    image: null,
    emailVerified: false,
    credential: { accountId: 'a1', passwordHash: 'h' },
  },
}

const HOUR = 3600_000
const at = (ms: number) => new Date(Date.parse('2026-11-01T10:00:00Z') + ms).toISOString()

const run = (commands: UserCommand[], start: UserEvent[] = [registered]) => {
  let state = start.reduce(userDecider.evolve, userDecider.initialState())
  const recorded: UserEvent[] = []
  for (const command of commands) {
    const events = userDecider.decide(command, state)
    recorded.push(...events)
    state = events.reduce(userDecider.evolve, state)
  }
  return { state, recorded }
}

const reset = (n: number, now = at(n)): UserCommand => ({
  type: 'request-password-reset',
  requestId: `r${n}`,
  tokenHash: `t${n}`,
  expiresAt: new Date(Date.parse(now) + HOUR).toISOString(),
  redirectTo: null,
  now,
})

describe('outstanding one-time tokens', () => {
  it('records no request while the maximum of live links is outstanding', () => {
    const { state, recorded } = run(Array.from({ length: 10 }, (_, n) => reset(n)))
    expect(recorded).toHaveLength(MAX_OUTSTANDING_TOKENS)
    expect(state.status === 'active' && state.resetTokens.map((t) => t.tokenHash)).toEqual(['t0', 't1', 't2'])
    // Nothing of the command's clock lands in the event.
    expect(recorded[0]?.data).not.toHaveProperty('now')
  })

  it('keeps the newest when expired ones make room', () => {
    const commands = [reset(0), reset(1), reset(2), reset(3, at(2 * HOUR))]
    const { state, recorded } = run(commands)
    expect(recorded).toHaveLength(4)
    expect(state.status === 'active' && state.resetTokens.map((t) => t.tokenHash)).toEqual(['t1', 't2', 't3'])
  })

  it('voids every reset and deletion token when the address changes', () => {
    const deletion: UserCommand = {
      type: 'request-deletion',
      proof: { kind: 'fresh-session', fresh: true },
      requestId: 'd',
      tokenHash: 'dt',
      expiresAt: at(HOUR),
      callbackURL: null,
      now: at(0),
    }
    const { state } = run([
      reset(0),
      deletion,
      { type: 'change-email', newEmail: 'new@example.com', callbackURL: null },
    ])
    expect(state.status === 'active' && [state.email, state.resetTokens, state.deletionTokens]).toEqual([
      'new@example.com',
      [],
      [],
    ])
    expect(() =>
      userDecider.decide(
        { type: 'reset-password', tokenHash: 't0', passwordHash: 'x', now: at(1), sameAsCurrent: false },
        state,
      ),
    ).toThrow(/Invalid token/)
  })
})

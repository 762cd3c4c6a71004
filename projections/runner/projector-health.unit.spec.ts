import { describe, expect, it } from 'vitest'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import { ProjectionError } from './apply-batch.js'
import { applied, failed, healthy, mayRun, resumed, stateOf } from './projector-health.js'

const policy = { group: 'read-models', maxAttempts: 3, retryBaseMs: 500 }
const event = (id: string) =>
  ({ id, type: 'user.registered', position: { tx: 7n, seq: 1n } }) as unknown as RecordedEvent
const poison = (id = 'e1') => new ProjectionError('users', event(id), new Error('bad row'))
const databaseDown = new Error('connection refused')

describe('the projector health', () => {
  it('backs off exponentially after a projection fails, up to 30 s', () => {
    const once = failed(healthy(), poison(), 1_000, { ...policy, maxAttempts: 100 })
    expect(once.retryAt).toBe(1_500)
    let state = once
    for (let i = 0; i < 10; i++) state = failed(state, poison(), 1_000, { ...policy, maxAttempts: 100 })
    expect(state.retryAt).toBe(31_000)
    expect(state.failures).toBe(11)
  })

  it('waits a database outage out with at most 2 s between tries, and never halts on it', () => {
    let state = healthy()
    for (let i = 0; i < 50; i++) state = failed(state, databaseDown, 0, policy)
    expect(state.halted).toBeNull()
    expect(state.retryAt).toBe(2_000)
    expect(state.lastError).toBe('connection refused')
  })

  it('halts after maxAttempts failures in a row on one event, with the fault to record', () => {
    let state = healthy()
    for (let i = 0; i < 3; i++) state = failed(state, poison('e1'), 5_000, policy)
    expect(state.halted).toMatchObject({ eventId: 'e1', projection: 'users', error: 'bad row', attempts: 3 })
    expect(state.halted?.haltedAt).toEqual(new Date(5_000))
    expect(stateOf(state, false)).toBe('halted')
    expect(mayRun(state, 1e12)).toBe(false)
  })

  it('counts attempts per event: a failure on another event starts again at one', () => {
    let state = failed(healthy(), poison('e1'), 0, policy)
    state = failed(state, poison('e1'), 0, policy)
    state = failed(state, poison('e2'), 0, policy)
    expect(state.suspect?.attempts).toBe(1)
    expect(state.halted).toBeNull()
  })

  it('forgets failures and backoff after a run goes through, keeping the total', () => {
    const state = applied(failed(failed(healthy(), poison(), 0, policy), poison(), 0, policy))
    expect(state).toMatchObject({ failures: 0, failuresTotal: 2, retryAt: 0, suspect: null, lastError: null })
    expect(stateOf(state, false)).toBe('running')
  })

  it('may not run inside a backoff, and may once it has passed', () => {
    const state = failed(healthy(), databaseDown, 10_000, policy)
    expect(stateOf(state, false)).toBe('retrying')
    expect(mayRun(state, 10_499)).toBe(false)
    expect(mayRun(state, 10_500)).toBe(true)
  })

  it('an operator retry clears the halt', () => {
    let state = healthy()
    for (let i = 0; i < 3; i++) state = failed(state, poison(), 0, policy)
    expect(resumed(state)).toMatchObject({ halted: null, suspect: null, failures: 0 })
    expect(stateOf(resumed(state), true)).toBe('stopped')
  })
})

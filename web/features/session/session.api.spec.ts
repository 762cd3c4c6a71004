import { describe, expect, it } from 'vitest'
import { makeStore } from '../../app/store.js'
import { fakeApi } from '../../test/fake-api.js'
import { signedInAs } from '../../test/fixtures.js'
import { sessionApi } from './session.api.js'

describe('get-session in the store', () => {
  it('keeps the session and the user, never the raw session token', async () => {
    const answer = signedInAs()
    const token = 'raw-session-token-that-must-not-be-cached'
    fakeApi({ 'GET /get-session': { body: { ...answer, session: { ...answer.session, token } } } })
    const store = makeStore()
    const result = await store.dispatch(sessionApi.endpoints.getSession.initiate())
    expect(result.data?.user.email).toBe('ada@example.com')
    expect(result.data?.session.id).toBe('session-1')
    expect(result.data?.session).not.toHaveProperty('token')
    expect(JSON.stringify(store.getState())).not.toContain(token)
  })

  it('answers null when signed out', async () => {
    fakeApi({ 'GET /get-session': { body: null } })
    const store = makeStore()
    expect((await store.dispatch(sessionApi.endpoints.getSession.initiate())).data).toBeNull()
  })
})

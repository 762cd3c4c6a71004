/// What the consent page is told about the application asking (`GET /oauth2/public-client`): its
/// name, site, logo and links as registered, and who registered it (Tessera's `owner_type` and
/// `owner`): the operator's backend, a person (by name), or nobody vouched for (open dynamic
/// registration). A disabled client is not shown, as better-auth answers it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestTessera } from '../support/tessera.js'
import {
  REDIRECT_URI,
  registerClient,
  SERVER_KEY,
  signedUp,
  startProvider,
} from '../support/tessera-as-provider.js'

describe('the consent page’s account of a client', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    // Open registration, so a client can register itself with nobody signed in.
    tessera = await startProvider({ allowUnauthenticatedClientRegistration: true })
  }, 300_000)
  afterAll(() => tessera?.cleanup())

  const publicClient = (clientId: string) =>
    tessera.api.request('GET', `/oauth2/public-client?client_id=${encodeURIComponent(clientId)}`)

  it('names the operator for a client its backend registered, with the links it gave', async () => {
    const { client_id } = await registerClient(tessera, {
      client_uri: 'https://notes.example',
      logo_uri: 'https://notes.example/logo.png',
      policy_uri: 'https://notes.example/privacy',
      tos_uri: 'https://notes.example/terms',
    })
    const answer = await publicClient(client_id)
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({
      client_id,
      client_name: 'Notes',
      client_uri: 'https://notes.example',
      logo_uri: 'https://notes.example/logo.png',
      policy_uri: 'https://notes.example/privacy',
      tos_uri: 'https://notes.example/terms',
      owner_type: 'operator',
    })
  })

  it('names the person who registered a client', async () => {
    const { browser } = await signedUp(tessera)
    const created = await browser.post('/oauth2/create-client', {
      client_name: 'Diary',
      redirect_uris: [REDIRECT_URI],
    })
    expect(created.status, created.body).toBe(201)
    const answer = await publicClient((created.json as { client_id: string }).client_id)
    expect(answer.json).toMatchObject({ client_name: 'Diary', owner_type: 'user', owner: 'Ada Lovelace' })
  })

  it('says nobody vouched for a client that registered itself', async () => {
    const registered = await tessera.api.request('POST', '/oauth2/register', {
      client_name: 'Stranger',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
    })
    expect(registered.status, registered.body).toBe(201)
    const answer = await publicClient((registered.json as { client_id: string }).client_id)
    expect(answer.json).toMatchObject({ client_name: 'Stranger', owner_type: 'dynamic' })
    expect(answer.json).not.toHaveProperty('owner')
  })

  it('does not show a disabled client', async () => {
    const { client_id } = await registerClient(tessera)
    const disabled = await tessera.api.request(
      'POST',
      '/oauth2/update-client',
      { client_id, update: { disabled: true } },
      { 'x-tessera-server-key': SERVER_KEY },
    )
    expect(disabled.status, disabled.body).toBe(200)
    const answer = await publicClient(client_id)
    expect(answer.status).toBe(404)
    expect(answer.json).toMatchObject({ error: 'not_found' })
  })
})

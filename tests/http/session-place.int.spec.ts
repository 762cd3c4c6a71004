/// Where a device was: the operator's proxy or CDN passes on its GeoIP in headers that
/// PLACE_COUNTRY_HEADER and PLACE_CITY_HEADER name; a session records the place when it starts, but
/// only from a request whose address came from a trusted proxy (TRUST_PROXY). The place shows on the
/// session, in the sign-in's activity entry and on a revocation's, and it is sealed and erased with
/// the person like the address it derives from.

import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { sessionStream } from '../../domain/session/session.js'
import { browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const VERCEL = { PLACE_COUNTRY_HEADER: 'X-Vercel-IP-Country', PLACE_CITY_HEADER: 'X-Vercel-IP-City' }
/** What a proxy in front of Tessera adds: the client's address and where it placed it. */
const FROM_MUNICH = {
  'x-forwarded-for': '203.0.113.7',
  'x-vercel-ip-country': 'DE',
  // Vercel percent-encodes the city's UTF-8.
  'x-vercel-ip-city': 'M%C3%BCnchen',
}

type SessionJson = {
  id: string
  token: string
  ipAddress: string | null
  country: string | null
  city: string | null
}
type Item = { type: string; details: Record<string, unknown> }

describe('the place a session started in', () => {
  let tessera: TestTessera
  afterEach(() => tessera.cleanup())

  const start = async (env: Record<string, string>, features?: object) => {
    tessera = await startTessera({ env, ...(features ? { features } : {}) })
  }

  const signUp = async (headers: Record<string, string>) => {
    const device = browserFor(tessera, headers)
    const answer = await device.post('/sign-up/email', {
      name: 'Ada',
      email: 'ada@example.com',
      password: PASSWORD,
    })
    expect(answer.status).toBe(200)
    return { ...device, userId: (answer.json as { user: { id: string } }).user.id }
  }

  const currentSession = async (device: ReturnType<typeof browserFor>) =>
    ((await device.get('/get-session')).json as { session: SessionJson }).session

  it('records the country and city a trusted proxy names, and shows them on the session and in the activity', async () => {
    await start({ TRUST_PROXY: '1', ...VERCEL })
    const laptop = await signUp(FROM_MUNICH)
    expect(await currentSession(laptop)).toMatchObject({
      ipAddress: '203.0.113.7',
      country: 'DE',
      city: 'München',
    })

    // Cloudflare-style: a bare country, and a city sent as raw UTF-8 (Node reads header bytes as Latin-1).
    const phone = browserFor(tessera, {
      'x-forwarded-for': '198.51.100.4',
      'x-vercel-ip-country': 'ch',
      'x-vercel-ip-city': Buffer.from('Zürich', 'utf8').toString('latin1'),
    })
    expect(
      (await phone.post('/sign-in/email', { email: 'ada@example.com', password: PASSWORD })).status,
    ).toBe(200)
    const phoneSession = await currentSession(phone)
    expect(phoneSession).toMatchObject({ country: 'CH', city: 'Zürich' })

    const listed = (await laptop.get('/list-sessions')).json as SessionJson[]
    const places = listed.map(({ country, city }) => ({ country, city }))
    expect(places.sort((a, b) => String(a.country).localeCompare(String(b.country)))).toEqual([
      { country: 'CH', city: 'Zürich' },
      { country: 'DE', city: 'München' },
    ])

    // The revocation's entry names the signed-out device, and where it was.
    expect((await laptop.post('/revoke-session', { token: phoneSession.id })).status).toBe(200)
    const items = ((await laptop.get('/activity')).json as { items: Item[] }).items
    const signIns = items.filter((item) => item.type === 'session.started').map((item) => item.details.place)
    expect(signIns).toEqual([
      { country: 'CH', city: 'Zürich' },
      { country: 'DE', city: 'München' },
    ])
    const revoked = items.find((item) => item.type === 'session.revoked')
    expect(revoked?.details).toMatchObject({
      sessionId: phoneSession.id,
      place: { country: 'CH', city: 'Zürich' },
    })
  })

  it('ignores the headers when the request did not come through a trusted proxy', async () => {
    // The test client connects from 127.0.0.1, which this list does not trust.
    await start({ TRUST_PROXY: '10.0.0.0/8', ...VERCEL })
    const spoofed = await signUp(FROM_MUNICH)
    expect(await currentSession(spoofed)).toMatchObject({ ipAddress: '127.0.0.1', country: null, city: null })
    const items = ((await spoofed.get('/activity')).json as { items: Item[] }).items
    expect(items.find((item) => item.type === 'session.started')?.details).not.toHaveProperty('place')
  })

  it('ignores the headers without TRUST_PROXY, and when the proxy forwarded no client address', async () => {
    await start(VERCEL)
    expect(await currentSession(await signUp(FROM_MUNICH))).toMatchObject({ country: null, city: null })
    await tessera.cleanup()

    await start({ TRUST_PROXY: '1', ...VERCEL })
    const { 'x-forwarded-for': _forwarded, ...placeOnly } = FROM_MUNICH
    expect(await currentSession(await signUp(placeOnly))).toMatchObject({ country: null, city: null })
  })

  it('reads headers nobody named as nothing, and a country code the proxy uses for "unknown" as unknown', async () => {
    await start({ TRUST_PROXY: '1', PLACE_COUNTRY_HEADER: 'CF-IPCountry' })
    const device = await signUp({
      'x-forwarded-for': '203.0.113.7',
      'cf-ipcountry': 'XX',
      'x-vercel-ip-city': 'Berlin',
    })
    expect(await currentSession(device)).toMatchObject({ country: null, city: null })
    const other = browserFor(tessera, { 'x-forwarded-for': '203.0.113.8', 'cf-ipcountry': 'FR' })
    expect(
      (await other.post('/sign-in/email', { email: 'ada@example.com', password: PASSWORD })).status,
    ).toBe(200)
    expect(await currentSession(other)).toMatchObject({ country: 'FR', city: null })
  })

  it('seals the place in the log and erases it with the person', async () => {
    await start({ TRUST_PROXY: '1', ...VERCEL }, { user: { deleteUser: { immediate: true } } })
    const ada = await signUp(FROM_MUNICH)
    const { id: sessionId } = await currentSession(ada)
    const logText = async () =>
      (
        await sql<{ text: string }>`select t::text as text from tessera_events t`.execute(tessera.database.db)
      ).rows
        .map((row) => row.text)
        .join('\n')
    expect(await logText()).not.toContain('nchen')
    const [started] = await tessera.store.readStream(sessionStream(sessionId))
    expect(started?.data).toMatchObject({ place: { country: 'DE', city: 'München' } })

    expect((await ada.post('/delete-user', { password: PASSWORD })).json).toMatchObject({ success: true })
    const [erased] = await tessera.store.readStream(sessionStream(sessionId))
    expect(erased?.data).toMatchObject({ place: null, ipAddress: null, userAgent: null })
    expect(erased?.metadata.erased).toBe(true)
  })
})

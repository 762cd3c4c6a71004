import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import type { Session } from '../session/session.api.js'
import { SessionList } from './SessionList.js'

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0'
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

const session = (id: string, userAgent: string, updatedAt: string, ipAddress = '203.0.113.7'): Session => ({
  id,
  userId: 'u1',
  token: `handle-${id}`,
  userAgent,
  ipAddress,
  createdAt: '2026-01-10T09:00:00.000Z',
  updatedAt,
  expiresAt: '2026-02-10T09:00:00.000Z',
})

// A small server: list-sessions answers what revoke calls have left.
const serveSessions = (initial: Session[], currentId: string) => {
  let sessions = [...initial]
  return fakeApi({
    'GET /list-sessions': () => ({ body: sessions }),
    'POST /revoke-session': (call) => {
      const { token } = call.body as { token: string }
      sessions = sessions.filter((s) => s.token !== token)
      return { body: { status: true } }
    },
    'POST /revoke-other-sessions': () => {
      sessions = sessions.filter((s) => s.id === currentId)
      return { body: { status: true } }
    },
  })
}

const three = [
  session('old', FIREFOX_WINDOWS, '2026-01-11T09:00:00.000Z', '198.51.100.4'),
  session('mine', CHROME_LINUX, '2026-01-12T09:00:00.000Z'),
  session('phone', SAFARI_IPHONE, '2026-01-13T09:00:00.000Z'),
]

describe('sessions list', () => {
  it('marks this device, puts it first, and names every device from its user agent', async () => {
    serveSessions(three, 'mine')
    renderWithProviders(<SessionList currentSessionId="mine" />)
    const items = await screen.findAllByRole('listitem')
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
      'Chrome on Linux This device',
      'Safari on iOS',
      'Firefox on Windows',
    ])
    const [mine, , old] = items
    if (!mine || !old) throw new Error('expected three sessions')
    expect(within(mine).queryByRole('button')).toBeNull()
    expect(within(old).getByText('198.51.100.4')).toBeTruthy()
    expect(within(old).getByText('Last active').nextElementSibling?.querySelector('time')?.dateTime).toBe(
      '2026-01-11T09:00:00.000Z',
    )
  })

  it('says where a device was when the server knows, and nothing where it does not', async () => {
    serveSessions(
      [
        { ...session('mine', CHROME_LINUX, '2026-01-12T09:00:00.000Z'), country: 'DE', city: 'Berlin' },
        { ...session('phone', SAFARI_IPHONE, '2026-01-13T09:00:00.000Z'), country: 'JP', city: null },
        // Unknown (no proxy placed it), and an older server that sends no such fields at all.
        { ...session('old', FIREFOX_WINDOWS, '2026-01-11T09:00:00.000Z'), country: null, city: null },
        session('older', FIREFOX_WINDOWS, '2026-01-10T09:00:00.000Z'),
      ],
      'mine',
    )
    renderWithProviders(<SessionList currentSessionId="mine" />)
    const items = await screen.findAllByRole('listitem')
    const locationOf = (item: HTMLElement) =>
      within(item).queryByText('Location')?.nextElementSibling?.textContent ?? null
    expect(items.map(locationOf)).toEqual(['Berlin, Germany', 'Japan', null, null])
  })

  it('revokes one device by its handle and refreshes the list', async () => {
    const api = serveSessions(three, 'mine')
    const { user } = renderWithProviders(<SessionList currentSessionId="mine" />)
    const firefox = (await screen.findByRole('heading', { name: 'Firefox on Windows' })).closest('li')
    if (!firefox) throw new Error('no Firefox session')
    await user.click(within(firefox).getByRole('button', { name: 'End session' }))

    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Firefox on Windows' })).toBeNull())
    expect(api.to('POST', '/revoke-session').map((call) => call.body)).toEqual([{ token: 'handle-old' }])
    expect(api.to('GET', '/list-sessions')).toHaveLength(2)
    expect(screen.getAllByRole('listitem')).toHaveLength(2)
  })

  it('signs out all other devices after asking, leaving this one', async () => {
    const api = serveSessions(three, 'mine')
    const { user } = renderWithProviders(<SessionList currentSessionId="mine" />)
    await user.click(await screen.findByRole('button', { name: 'Sign out all other devices (2)' }))
    expect(api.to('POST', '/revoke-other-sessions')).toHaveLength(0)
    const confirm = screen.getByRole('button', { name: 'Sign out 2 other devices' })
    // The safe answer has focus: a second Enter does no harm.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }))
    await user.click(confirm)

    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1))
    expect(api.to('POST', '/revoke-other-sessions')).toHaveLength(1)
    expect(screen.getByRole('status').textContent).toBe('Your other devices are signed out.')
    expect(screen.queryByRole('button', { name: /Sign out all other devices/ })).toBeNull()
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Signed-in devices' }))
  })

  it('can be called off: nothing is sent and focus returns to the button', async () => {
    const api = serveSessions(three, 'mine')
    const { user } = renderWithProviders(<SessionList currentSessionId="mine" />)
    await user.click(await screen.findByRole('button', { name: 'Sign out all other devices (2)' }))
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    const again = screen.getByRole('button', { name: 'Sign out all other devices (2)' })
    await waitFor(() => expect(document.activeElement).toBe(again))
    expect(api.to('POST', '/revoke-other-sessions')).toHaveLength(0)
  })

  it('after ending a session, says which and puts focus on the list instead of <body>', async () => {
    serveSessions(three, 'mine')
    const { user } = renderWithProviders(<SessionList currentSessionId="mine" />)
    const phone = (await screen.findByRole('heading', { name: 'Safari on iOS' })).closest('li')
    if (!phone) throw new Error('no phone session')
    await user.click(within(phone).getByRole('button', { name: 'End session' }))
    expect((await screen.findByRole('status')).textContent).toBe('Safari on iOS is signed out.')
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Signed-in devices' }))
  })

  it('shows a failed revoke next to the device', async () => {
    fakeApi({
      'GET /list-sessions': { body: three },
      'POST /revoke-session': { status: 500, body: { code: 'INTERNAL', message: 'oops' } },
    })
    const { user } = renderWithProviders(<SessionList currentSessionId="mine" />)
    const phone = (await screen.findByRole('heading', { name: 'Safari on iOS' })).closest('li')
    if (!phone) throw new Error('no phone session')
    await user.click(within(phone).getByRole('button', { name: 'End session' }))
    await waitFor(() => expect(within(phone).getByText(/on our side/)).toBeTruthy())
  })
})

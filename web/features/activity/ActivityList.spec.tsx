import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { ActivityList } from './ActivityList.js'
import type { ActivityItem } from './activity.api.js'

const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0'
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

const item = (id: string, type: string, at: string, extra: Partial<ActivityItem> = {}): ActivityItem => ({
  id,
  type,
  at,
  ip: null,
  userAgent: null,
  details: null,
  ...extra,
})

const firstPage = [
  item('e5', 'session.started', '2026-03-05T10:00:00.000Z', { ip: '192.0.2.1', userAgent: FIREFOX_MAC }),
  item('e4', 'user.password-changed', '2026-03-04T10:00:00.000Z'),
]
const secondPage = [
  item('e3', 'user.email-verified', '2026-03-03T10:00:00.000Z'),
  item('e2', 'some.future-event', '2026-03-02T10:00:00.000Z'),
  item('e1', 'user.registered', '2026-03-01T10:00:00.000Z'),
]

/** The facts of an entry's "where" line, each its own item (no "·" in the text). */
const whereOf = (entry: HTMLElement): string[] =>
  Array.from(entry.querySelectorAll('.activity-where > .inline-list-item'), (fact) => fact.textContent ?? '')

describe('activity list', () => {
  it('tells each event in words, with its time and device, and loads older pages on demand', async () => {
    const api = fakeApi({
      'GET /activity': (call) =>
        call.query.get('cursor') === 'after-e4'
          ? { body: { items: secondPage, nextCursor: null } }
          : { body: { items: firstPage, nextCursor: 'after-e4' } },
    })
    const { user } = renderWithProviders(<ActivityList />)

    const list = await screen.findByRole('list', { name: 'Account activity' })
    const entries = within(list).getAllByRole('listitem')
    expect(entries).toHaveLength(2)
    const [signIn] = entries
    if (!signIn) throw new Error('no entries')
    expect(within(signIn).getByText('You signed in')).toBeTruthy()
    expect(whereOf(signIn)).toEqual(['Firefox on macOS', '192.0.2.1'])
    expect(signIn.querySelector('time')?.dateTime).toBe('2026-03-05T10:00:00.000Z')
    expect(api.calls[0]?.query.get('limit')).toBe('20')
    expect(api.calls[0]?.query.has('cursor')).toBe(false)

    await user.click(screen.getByRole('button', { name: 'Load more' }))
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(5))
    expect(api.to('GET', '/activity').map((call) => call.query.get('cursor'))).toEqual([null, 'after-e4'])
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.firstChild?.textContent),
    ).toEqual([
      'You signed in',
      'You changed your password',
      'You verified your email address',
      'Account event: some.future-event',
      'You created your account',
    ])
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
    expect(screen.getByText('That is everything.')).toBeTruthy()
  })

  it('says where a sign-in was and where a signed-out device was, when the server knows', async () => {
    fakeApi({
      'GET /activity': {
        body: {
          items: [
            item('e3', 'session.revoked', '2026-03-05T12:00:00.000Z', {
              ip: '192.0.2.1',
              userAgent: FIREFOX_MAC,
              details: {
                sessionId: 's2',
                reason: 'revoked',
                userAgent: SAFARI_IPHONE,
                place: { country: 'FR', city: 'Lyon' },
              },
            }),
            item('e2', 'session.started', '2026-03-05T11:00:00.000Z', {
              ip: '198.51.100.4',
              userAgent: SAFARI_IPHONE,
              details: { sessionId: 's2', place: { country: 'FR', city: 'Lyon' } },
            }),
            item('e1', 'session.started', '2026-03-05T10:00:00.000Z', {
              ip: '192.0.2.1',
              userAgent: FIREFOX_MAC,
              details: { sessionId: 's1' },
            }),
          ],
          nextCursor: null,
        },
      },
    })
    renderWithProviders(<ActivityList />)
    const list = await screen.findByRole('list', { name: 'Account activity' })
    const [revoked, phone, laptop] = within(list).getAllByRole('listitem')
    if (!revoked || !phone || !laptop) throw new Error('expected three entries')
    // Device, place and address are separate items: on a phone the line breaks between them,
    // never leaving a "·" at the end of a line.
    expect(whereOf(phone)).toEqual(['Safari on iOS', 'Lyon, France', '198.51.100.4'])
    expect(phone.textContent).not.toContain('·')
    // Unknown: the entry says nothing of a place.
    expect(whereOf(laptop)).toEqual(['Firefox on macOS', '192.0.2.1'])
    // The revocation names the signed-out device and its place; its own line is the device that did it.
    expect(within(revoked).getByText('You signed out Safari on iOS in Lyon, France')).toBeTruthy()
    expect(whereOf(revoked)).toEqual(['From Firefox on macOS', '192.0.2.1'])
  })

  it('disables Load more while the next page is on its way', async () => {
    let releaseSecond: () => void = () => {}
    fakeApi({
      'GET /activity': (call) =>
        call.query.get('cursor')
          ? new Promise((resolve) => {
              releaseSecond = () => resolve({ body: { items: secondPage, nextCursor: null } })
            })
          : { body: { items: firstPage, nextCursor: 'after-e4' } },
    })
    const { user } = renderWithProviders(<ActivityList />)
    await user.click(await screen.findByRole('button', { name: 'Load more' }))
    const busy = await screen.findByRole('button', { name: 'Loading…' })
    expect((busy as HTMLButtonElement).disabled).toBe(true)
    releaseSecond()
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(5))
  })

  it('says so when there is nothing yet', async () => {
    fakeApi({ 'GET /activity': { body: { items: [], nextCursor: null } } })
    renderWithProviders(<ActivityList />)
    expect(await screen.findByText('Nothing has happened on your account yet.')).toBeTruthy()
  })
})

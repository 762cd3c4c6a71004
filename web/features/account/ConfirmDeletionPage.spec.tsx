import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, heldReply } from '../../test/fake-api.js'
import { signedInAs } from '../../test/fixtures.js'
import { renderWithProviders } from '../../test/render.js'
import { ConfirmDeletionPage } from './ConfirmDeletionPage.js'

const open = (route = '/confirm-deletion?token=T1&callbackURL=%2Fgoodbye%2Flink') =>
  renderWithProviders(<ConfirmDeletionPage />, { route, path: '/confirm-deletion' })

describe('the deletion link opened in a browser (/confirm-deletion)', () => {
  it('signed out: explains, deletes nothing, and offers to sign in and come back here', async () => {
    const api = fakeApi({ 'GET /get-session': { body: null } })
    const { user } = open()
    expect(
      await screen.findByRole('heading', { name: 'Sign in to delete your account', level: 1 }),
    ).toBeTruthy()
    expect(screen.getByText(/Nothing is deleted until you do/)).toBeTruthy()
    await user.click(screen.getByRole('link', { name: 'Sign in to continue' }))
    const location = await screen.findByTestId('location')
    expect(location.textContent).toBe('/sign-in')
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({
      from: '/confirm-deletion?token=T1&callbackURL=%2Fgoodbye%2Flink',
    })
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([])
  })

  it('signed in: asks once more, then deletes with the token and says goodbye', async () => {
    const held = heldReply({ body: { success: true, message: 'User deleted' } })
    const api = fakeApi({ 'GET /get-session': { body: signedInAs() }, 'POST /delete-user': held.route })
    const { user } = open()
    expect(
      await screen.findByRole('heading', { name: 'Delete your account for good?', level: 1 }),
    ).toBeTruthy()
    expect(screen.getByText('ada@example.com')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Keep my account' }).getAttribute('href')).toBe('/account')
    await user.click(screen.getByRole('button', { name: 'Delete my account' }))
    // Never sent twice: the button is busy while the request is on its way.
    const busy = await screen.findByRole('button', { name: 'Deleting…' })
    expect((busy as HTMLButtonElement).disabled).toBe(true)
    held.release()
    expect((await screen.findByTestId('location')).textContent).toBe('/goodbye/link')
    expect(api.to('POST', '/delete-user').map((call) => call.body)).toEqual([
      { token: 'T1', callbackURL: '/goodbye/link' },
    ])
  })

  it('a link the server no longer knows: says so, nothing was deleted, and leads back', async () => {
    fakeApi({
      'GET /get-session': { body: signedInAs() },
      'POST /delete-user': { status: 404, body: { code: 'INVALID_TOKEN', message: 'Invalid token' } },
    })
    const { user } = open()
    await user.click(await screen.findByRole('button', { name: 'Delete my account' }))
    expect(
      await screen.findByRole('heading', { name: 'This link is no longer valid', level: 1 }),
    ).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toContain('has not been deleted')
    expect(screen.getByRole('link', { name: 'Back to your account' }).getAttribute('href')).toBe('/account')
  })

  it('another failure stays on the page, at the top of the form', async () => {
    fakeApi({
      'GET /get-session': { body: signedInAs() },
      'POST /delete-user': { status: 503, body: { code: 'UNAVAILABLE', message: '' } },
    })
    const { user } = open()
    await user.click(await screen.findByRole('button', { name: 'Delete my account' }))
    expect((await screen.findByRole('alert')).textContent).toContain('on our side')
    expect(screen.getByRole('heading', { name: 'Delete your account for good?' })).toBeTruthy()
  })

  it('a used or expired link opened signed out: no sign-in to delete, and no claim about the account', async () => {
    fakeApi({ 'GET /get-session': { body: null } })
    open('/confirm-deletion?error=INVALID_TOKEN')
    expect(
      await screen.findByRole('heading', { name: 'This link is no longer valid', level: 1 }),
    ).toBeTruthy()
    expect(screen.queryByText(/Sign in to delete/)).toBeNull()
    // Signed out, the page cannot know whether this very link deleted the account.
    expect(screen.getByRole('alert').textContent).not.toContain('has not been deleted')
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/sign-in')
  })

  it('a link without its token is not valid', async () => {
    fakeApi({ 'GET /get-session': { body: null } })
    open('/confirm-deletion')
    expect(await screen.findByRole('heading', { name: 'This link is no longer valid' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy()
  })
})

import { screen } from '@testing-library/react'
import { it } from 'vitest'
import { useLocation } from 'react-router'
import { fakeApi } from '../test/fake-api.js'
import { signedInAs } from '../test/fixtures.js'
import { renderWithProviders } from '../test/render.js'
import { App } from './App.js'

const Spy = () => { const l = useLocation(); console.log('LOC', l.pathname, JSON.stringify(l.state)); return <App/> }
it('debug', async () => {
  fakeApi({ 'GET /get-session': { body: signedInAs() }, 'POST /sign-out': { body: { success: true } }, 'GET /activity': { body: { items: [], nextCursor: null } } })
  const { user } = renderWithProviders(<Spy />, { route: '/activity', path: '*' })
  await user.click(await screen.findByRole('button', { name: 'Sign out' }))
  await screen.findByRole('heading', { name: 'Sign in' })
  await new Promise(r => setTimeout(r, 100))
})

import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../test/render.js'
import { currentSection, type Section, SectionNav } from './SectionNav.js'

const SECTIONS: readonly Section[] = [
  { to: '/account', label: 'Profile', icon: 'user' },
  { to: '/account/email', label: 'Email', icon: 'mail' },
  { to: '/account/organizations', label: 'Organizations', icon: 'users', end: false },
]
const OPERATOR = {
  heading: 'Operator console',
  sections: [{ to: '/admin/users', label: 'Users', icon: 'id-card', end: false }] as const,
}

const open = (route: string) =>
  renderWithProviders(<SectionNav label="Account" sections={SECTIONS} groups={[OPERATOR]} />, {
    route,
    path: '*',
  })

describe('the section menu', () => {
  it('names the open section on its button, an organization’s pages under Organizations', () => {
    open('/account/organizations/org-1/api-keys')
    const toggle = screen.getByRole('button', { name: 'Menu Organizations' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(currentSection(SECTIONS, '/account')?.label).toBe('Profile')
    expect(currentSection(SECTIONS, '/account/email')?.label).toBe('Email')
  })

  it('opens and closes as a disclosure, Escape giving the focus back to the button', async () => {
    const { user } = open('/account/email')
    const toggle = screen.getByRole('button', { name: 'Menu Email' })
    const list = document.getElementById(toggle.getAttribute('aria-controls') ?? '')
    expect(list).toBeTruthy()
    await user.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    await user.tab()
    expect(document.activeElement?.textContent).toBe('Profile')
    await user.keyboard('{Escape}')
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(document.activeElement).toBe(toggle)
  })

  it('closes once another section is chosen, which the button then names', async () => {
    const { user } = renderWithProviders(<SectionNav label="Account" sections={SECTIONS} />, {
      route: '/account',
      path: '/account/*',
    })
    await user.click(screen.getByRole('button', { name: 'Menu Profile' }))
    await user.click(screen.getByRole('link', { name: 'Email' }))
    const toggle = await screen.findByRole('button', { name: 'Menu Email' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
  })

  it('puts the operator’s sections under their own heading', () => {
    open('/admin/users/u-1')
    expect(screen.getByRole('button', { name: 'Menu Users' })).toBeTruthy()
    const console = screen.getByRole('list', { name: 'Operator console' })
    expect(within(console).getByRole('link', { name: 'Users' }).getAttribute('aria-current')).toBe('page')
    expect(screen.getByRole('heading', { name: 'Operator console', level: 2 })).toBeTruthy()
  })
})

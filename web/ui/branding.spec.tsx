import { act, render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { SiteHeader } from '../app/frames.js'
import { DEFAULT_BRANDING, loadBranding, setBranding } from './branding.js'
import { PageHeading } from './PageHeading.js'

const ACME = {
  productName: 'Acme Accounts',
  logoUrl: 'https://acme.example/logo.svg',
  accent: { color: '#1d4ed8', hover: '#1942b8', onAccent: '#ffffff' },
  backLink: { label: 'Acme', url: 'https://app.acme.example' },
}

const header = () =>
  render(
    <MemoryRouter>
      <SiteHeader />
      <PageHeading title="Sign in" />
    </MemoryRouter>,
  )

const answer = (body: unknown, status = 200): typeof fetch =>
  (async () => new Response(JSON.stringify(body), { status })) as typeof fetch

afterEach(() => act(() => setBranding(DEFAULT_BRANDING)))

describe('branding', () => {
  it('says Tessera, with its own mark and colours, by default', () => {
    const { container } = header()
    expect(screen.getByRole('link', { name: 'Tessera' })).toBeDefined()
    expect(container.querySelector('.brand svg')).not.toBeNull()
    expect(screen.queryByRole('link', { name: /Back to/ })).toBeNull()
    expect(document.title).toBe('Sign in · Tessera')
    expect(document.documentElement.style.getPropertyValue('--color-primary')).toBe('')
  })

  it('shows the operator’s name, logo, accent and way back once the server says them', async () => {
    const { container } = header()
    await act(() => loadBranding(answer({ branding: ACME })))
    expect(screen.getByRole('link', { name: 'Acme Accounts' }).getAttribute('href')).toBe('/')
    expect(container.querySelector('.brand img')?.getAttribute('src')).toBe(ACME.logoUrl)
    expect(container.querySelector('.brand svg')).toBeNull()
    const back = screen.getByRole('link', { name: /Back to Acme/ })
    expect(back.getAttribute('href')).toBe('https://app.acme.example')
    expect(document.title).toBe('Sign in · Acme Accounts')
    const style = document.documentElement.style
    expect(style.getPropertyValue('--color-primary')).toBe('#1d4ed8')
    expect(style.getPropertyValue('--color-on-accent')).toBe('#ffffff')
  })

  it('keeps Tessera’s look when the server does not answer', async () => {
    header()
    await act(() => loadBranding(answer({ code: 'X' }, 500)))
    await act(() => loadBranding((async () => Promise.reject(new Error('offline'))) as typeof fetch))
    expect(screen.getByRole('link', { name: 'Tessera' })).toBeDefined()
  })

  it('gives the accent back when the branding goes', () => {
    header()
    act(() => setBranding(ACME))
    act(() => setBranding(DEFAULT_BRANDING))
    expect(document.documentElement.style.getPropertyValue('--color-primary')).toBe('')
    expect(document.title).toBe('Sign in · Tessera')
  })
})

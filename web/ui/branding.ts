import { useSyncExternalStore } from 'react'

/// The operator's branding (`branding` in tessera.config.json, served in GET /portal-config): the
/// product's name in the header and the tab title, its logo, its accent behind primary buttons,
/// and a link back to the application people came from. Read with a bare fetch, not the store,
/// so the first page pays a few hundred bytes for it; until it arrives the portal says Tessera.

export type Branding = {
  productName: string
  logoUrl: string | null
  /** Worked out by the server: text on the accent reads at 4.5:1 or better. */
  accent: { color: string; hover: string; onAccent: string } | null
  backLink: { label: string; url: string } | null
}

export const DEFAULT_BRANDING: Branding = {
  productName: 'Tessera',
  logoUrl: null,
  accent: null,
  backLink: null,
}

let current: Branding = DEFAULT_BRANDING
const listeners = new Set<() => void>()

const ACCENT_VARIABLES = ['--color-primary', '--color-primary-hover', '--color-on-accent'] as const

const applyAccent = (accent: Branding['accent']) => {
  const style = document.documentElement.style
  if (accent === null) {
    for (const name of ACCENT_VARIABLES) style.removeProperty(name)
    return
  }
  // Only the filled surfaces take the accent; links and focus rings keep colours checked against
  // the page's backgrounds.
  style.setProperty('--color-primary', accent.color)
  style.setProperty('--color-primary-hover', accent.hover)
  style.setProperty('--color-on-accent', accent.onAccent)
}

/** The tab title, `Page · Product`. */
export const tabTitle = (page: string): string => `${page} · ${current.productName}`

export const setBranding = (branding: Branding) => {
  const before = current.productName
  current = branding
  applyAccent(branding.accent)
  const suffix = ` · ${before}`
  if (document.title.endsWith(suffix)) document.title = tabTitle(document.title.slice(0, -suffix.length))
  else if (document.title === before) document.title = branding.productName
  for (const listener of listeners) listener()
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const useBranding = (): Branding => useSyncExternalStore(subscribe, () => current)

const isBranding = (value: unknown): value is Branding =>
  typeof value === 'object' && value !== null && typeof (value as Branding).productName === 'string'

/** Asks the server once; a server that does not answer leaves Tessera's own look. */
export const loadBranding = async (fetcher: typeof fetch = fetch): Promise<void> => {
  try {
    const response = await fetcher('/api/auth/portal-config', { credentials: 'same-origin' })
    if (!response.ok) return
    const body = (await response.json()) as { branding?: unknown }
    if (isBranding(body.branding)) setBranding(body.branding)
  } catch {
    // Offline or an older server: the default look is right either way.
  }
}

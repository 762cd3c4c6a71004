/// `branding` in tessera.config.json: how the portal and the mails name and dress the service.
///   {"branding": {"productName": "Acme Accounts", "logoUrl": "https://acme.example/logo.svg",
///                 "accentColor": "#d9480f",
///                 "backLink": {"label": "Acme", "url": "https://app.acme.example"}}}
/// Every key is optional; left out, the service is called Tessera, with its own mark and colours.

import type { Section } from './config-section.js'

export const DEFAULT_PRODUCT_NAME = 'Tessera'

export type BrandingOptions = {
  productName: string
  /** https (the portal's image policy allows no other scheme), or a path on this origin. */
  logoUrl: string | null
  /** `#rrggbb`, lower case; the portal's primary buttons and mark. */
  accentColor: string | null
  /** "Back to <label>", to the application people came from. */
  backLink: { label: string; url: string } | null
}

// Shown in a header and a mail subject: one short line.
const MAX_NAME_LENGTH = 60

export const parseBrandingOptions = (section: Section): BrandingOptions => {
  const productName = shortLine(section, 'branding.productName', DEFAULT_PRODUCT_NAME)
  const logoUrl = optionalUrl(section, 'branding.logoUrl', ['https:'])
  const accentColor = optionalColor(section, 'branding.accentColor')
  const backLink = parseBackLink(section)
  return section.done({ productName, logoUrl, accentColor, backLink })
}

const parseBackLink = (section: Section): BrandingOptions['backLink'] => {
  if (section.raw('backLink') === undefined) return null
  const link = section.section('backLink')
  const label = shortLine(link, 'branding.backLink.label', '')
  const url = optionalUrl(link, 'branding.backLink.url', ['https:', 'http:'])
  if (label === '' || url === null) throw section.error('branding.backLink', 'needs both "label" and "url"')
  return link.done({ label, url })
}

/** `path` is the option's full path; its last part is the key in `section`. */
const shortLine = (section: Section, path: string, fallback: string): string => {
  const value = section.raw(keyOf(path))
  if (value === undefined) return fallback
  if (
    typeof value !== 'string' ||
    value.trim() === '' ||
    value.length > MAX_NAME_LENGTH ||
    [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
  )
    throw section.error(path, `must be one line of 1 to ${MAX_NAME_LENGTH} characters`)
  return value.trim()
}

const optionalUrl = (section: Section, path: string, schemes: readonly string[]): string | null => {
  const value = section.raw(keyOf(path))
  if (value === undefined || value === null) return null
  const shown = schemes.map((scheme) => scheme.replace(':', '')).join(' or ')
  if (typeof value === 'string' && path === 'branding.logoUrl' && /^\/(?![/\\])/.test(value)) return value
  if (typeof value === 'string' && schemes.includes(schemeOf(value))) return value
  throw section.error(
    path,
    path === 'branding.logoUrl'
      ? `must be an ${shown} URL or a path on this server (the portal shows no other pictures)`
      : `must be an ${shown} URL`,
  )
}

const keyOf = (path: string): string => path.slice(path.lastIndexOf('.') + 1)

const schemeOf = (value: string): string => {
  try {
    return new URL(value).protocol
  } catch {
    return ''
  }
}

const optionalColor = (section: Section, path: string): string | null => {
  const value = section.raw(keyOf(path))
  if (value === undefined || value === null) return null
  if (typeof value !== 'string' || !/^#[0-9a-f]{6}$/i.test(value))
    throw section.error(path, 'must be a colour written #rrggbb, such as "#d9480f"')
  return value.toLowerCase()
}

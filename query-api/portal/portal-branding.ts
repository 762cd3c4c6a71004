/// The branding part of GET /portal-config: what the portal shows in its header, tab title and
/// primary buttons. Its colours are worked out here, once, rather than in every browser.

import { Type } from 'typebox'
import type { BrandingOptions } from '../../infra/config/branding-options.js'
import { accentPalette } from './accent-palette.js'

export const PortalBranding = Type.Object({
  productName: Type.String(),
  logoUrl: Type.Union([Type.String(), Type.Null()]),
  accent: Type.Union([
    Type.Object({ color: Type.String(), hover: Type.String(), onAccent: Type.String() }),
    Type.Null(),
  ]),
  backLink: Type.Union([Type.Object({ label: Type.String(), url: Type.String() }), Type.Null()]),
})

export const portalBranding = (branding: BrandingOptions) => {
  const palette = branding.accentColor === null ? null : accentPalette(branding.accentColor)
  return {
    productName: branding.productName,
    logoUrl: branding.logoUrl,
    accent: palette && { color: palette.accent, hover: palette.hover, onAccent: palette.onAccent },
    backLink: branding.backLink,
  }
}

import { describe, expect, it } from 'vitest'
import { accentPalette, contrastRatio } from './accent-palette.js'

describe('the colours drawn from an accent', () => {
  it('writes white on a dark accent and darkens it on hover', () => {
    const palette = accentPalette('#0969da')
    expect(palette.onAccent).toBe('#ffffff')
    expect(contrastRatio(palette.hover, '#ffffff')).toBeGreaterThan(contrastRatio('#0969da', '#ffffff'))
  })

  it('keeps an accent that reads well as it is, and shades a mid-tone just enough', () => {
    expect(accentPalette('#0969da').accent).toBe('#0969da')
    const shaded = accentPalette('#1c7ed6').accent
    expect(shaded).not.toBe('#1c7ed6')
    expect(contrastRatio(shaded, '#ffffff')).toBeLessThan(5.2)
  })

  it('writes dark text on a light accent and lightens it on hover', () => {
    const palette = accentPalette('#ffd43b')
    expect(palette.onAccent).toBe('#1f2328')
    expect(contrastRatio(palette.hover, palette.onAccent)).toBeGreaterThan(
      contrastRatio('#ffd43b', palette.onAccent),
    )
  })

  it.each(['#000000', '#ffffff', '#d9480f', '#2f9e44', '#ff00ff', '#777777', '#1c7ed6'])(
    'keeps button text on %s at least 4.5:1, as WCAG AA asks of body text',
    (accent) => {
      const { onAccent, hover, accent: shown } = accentPalette(accent)
      expect(contrastRatio(shown, onAccent)).toBeGreaterThanOrEqual(4.5)
      expect(contrastRatio(hover, onAccent)).toBeGreaterThanOrEqual(4.5)
    },
  )
})

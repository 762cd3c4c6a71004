/// The colours the portal derives from an operator's accent: the accent behind primary buttons
/// and the mark, a hover shade, and the text on both, black or white, whichever reads better by
/// WCAG 2's contrast ratio; an accent neither reads on at 4.5:1 is shaded until one does. Links and focus rings keep the portal's own colours, which
/// are checked against its backgrounds, so no accent can make text unreadable.

export type AccentPalette = { accent: string; hover: string; onAccent: string }

const channels = (hex: string): [number, number, number] => [
  Number.parseInt(hex.slice(1, 3), 16),
  Number.parseInt(hex.slice(3, 5), 16),
  Number.parseInt(hex.slice(5, 7), 16),
]

const toHex = (rgb: readonly number[]): string =>
  `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
export const luminance = (hex: string): number => {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

export const contrastRatio = (a: string, b: string): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

const WHITE = '#ffffff'
const INK = '#1f2328'

// WCAG AA for text of normal size; button labels are that.
const MIN_CONTRAST = 4.5

const mix = (hex: string, toward: number, share: number): string =>
  toHex(channels(hex).map((c) => c + (toward - c) * share))

export const accentPalette = (accent: string): AccentPalette => {
  const onAccent = contrastRatio(accent, WHITE) >= contrastRatio(accent, INK) ? WHITE : INK
  // Away from the text colour, so contrast only grows: darker under white text, lighter under ink.
  const away = onAccent === WHITE ? 0 : 255
  // A mid-tone (#777777) reads well under neither: it is shaded just enough to reach AA.
  let shown = accent
  for (let share = 0.05; contrastRatio(shown, onAccent) < MIN_CONTRAST && share <= 1; share += 0.05)
    shown = mix(accent, away, share)
  return { accent: shown, hover: mix(shown, away, 0.15), onAccent }
}

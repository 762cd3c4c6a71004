import { Link } from 'react-router'

/** The Tessera mark: four tiles of a mosaic (a tessera is one tile), two of them lit. */
export const LogoMark = ({ size = 28 }: { size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
    <rect width="32" height="32" rx="8" fill="var(--color-primary)" />
    <rect x="7" y="7" width="8" height="8" rx="1.5" fill="#fff" />
    <rect x="17" y="7" width="8" height="8" rx="1.5" fill="#fff" fillOpacity=".55" />
    <rect x="7" y="17" width="8" height="8" rx="1.5" fill="#fff" fillOpacity=".55" />
    <rect x="17" y="17" width="8" height="8" rx="1.5" fill="#fff" />
  </svg>
)

export const Brand = () => (
  <Link to="/" className="brand">
    <LogoMark />
    Tessera
  </Link>
)

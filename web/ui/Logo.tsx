import { Link } from 'react-router'
import { useBranding } from './branding.js'

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

/** The product's mark and name (the operator's, when branded), leading home. */
export const Brand = () => {
  const { productName, logoUrl } = useBranding()
  return (
    <Link to="/" className="brand">
      {/* The name beside it says what the logo shows, so the picture itself is decorative. */}
      {logoUrl === null ? <LogoMark /> : <img className="brand-logo" src={logoUrl} alt="" height={28} />}
      {productName}
    </Link>
  )
}

/** "Back to <app>", when the operator named the application people come from. */
export const BackLink = () => {
  const { backLink } = useBranding()
  if (backLink === null) return null
  return (
    <a className="back-link" href={backLink.url}>
      <span aria-hidden="true">← </span>Back to {backLink.label}
    </a>
  )
}

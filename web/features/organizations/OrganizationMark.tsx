import { useState } from 'react'
import type { Organization } from './organizations.api.js'

/** The organization's logo, or its initial on a square; decorative (its name is always beside it). */
export const OrganizationMark = ({
  organization,
  size = 32,
}: {
  organization: Organization
  size?: number
}) => {
  const [broken, setBroken] = useState(false)
  if (organization.logo && !broken)
    return (
      <img
        className="org-mark"
        src={organization.logo}
        alt=""
        width={size}
        height={size}
        onError={() => setBroken(true)}
      />
    )
  return (
    <span
      className="org-mark"
      style={{ width: size, height: size, fontSize: size * 0.45 }}
      aria-hidden="true"
    >
      {(organization.name.trim() || organization.slug).charAt(0).toUpperCase()}
    </span>
  )
}

import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { useOrganization } from './organization-context.js'
import { roleLabel } from './roles.js'
import { may, type Permission } from './viewer.api.js'

type Props = {
  /** Any one of them lets the reader in. */
  needs: readonly Permission[]
  title: string
  /** What the page shows, to finish "Your role … does not let you see …". */
  what: string
  children: ReactNode
}

/**
 * An organization page for some roles only. Anyone else who reaches its address (an old link, a
 * role changed meanwhile) reads why in words, with the way back, instead of a server's refusal.
 */
export const RequirePermission = ({ needs, title, what, children }: Props) => {
  const context = useOrganization()
  if (needs.some((permission) => may(context, permission))) return <>{children}</>
  const { organization, me, viewer } = context
  const held = viewer?.role ?? me?.role
  const role = held ? roleLabel(held) : 'member'
  return (
    <>
      <PageHeading title={title} documentTitle={`${title} · ${organization.name}`} />
      <Notice tone="info" title="Not available to your role">
        <p>
          As {/^[AEIOU]/.test(role) ? 'an' : 'a'} {role} of {organization.name}, you cannot see {what}. An
          owner or admin can change your role if you need it.
        </p>
      </Notice>
      <p>
        <Link to={`/account/organizations/${organization.id}`}>
          Back to the members of {organization.name}
        </Link>
      </p>
    </>
  )
}

import { useRef } from 'react'
import { Link, NavLink, Outlet, useLocation, useParams } from 'react-router'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { ErrorState } from '../../ui/ErrorState.js'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { Loading } from '../../ui/Skeleton.js'
import { useOpenTabInSight } from '../../ui/use-open-tab-in-sight.js'
import { noticeFrom } from '../auth/navigation-state.js'
import { isApiError } from '../errors/api-error.js'
import { useSignedIn } from '../session/RequireSession.js'
import { OrganizationMark } from './OrganizationMark.js'
import { activeOrganizationIdOf, type OrganizationContext } from './organization-context.js'
import { organizationMessageFor } from './organization-messages.js'
import { useGetFullOrganizationQuery, useSetActiveOrganizationMutation } from './organizations.api.js'
import { may, type Permission, useGetOrganizationViewerQuery } from './viewer.api.js'
import './organizations.css'

// A tab shows when the reader's role grants one of the permissions it needs (the server's answer,
// organization/viewer), so no page is offered that would only be refused.
const TABS: readonly { path: string; label: string; needs?: readonly Permission[]; feature?: 'teams' }[] = [
  { path: '', label: 'Members' },
  { path: 'invitations', label: 'Invitations' },
  { path: 'teams', label: 'Teams', feature: 'teams' },
  { path: 'activity', label: 'Activity', needs: ['activity:read'] },
  { path: 'api-keys', label: 'API keys', needs: ['apiKey:read'] },
  { path: 'settings', label: 'Settings', needs: ['organization:update', 'organization:delete'] },
]

export const tabsFor = (context: Pick<OrganizationContext, 'viewer' | 'me'>) =>
  TABS.filter(
    (tab) =>
      (!tab.needs || tab.needs.some((permission) => may(context, permission))) &&
      (!tab.feature || (context.viewer?.features[tab.feature] ?? true)),
  )

/** A refusal to show the organization: not a member (any more), or it is gone. */
const isOutside = (error: unknown) =>
  isApiError(error) &&
  [
    'ORGANIZATION_NOT_FOUND',
    'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
  ].includes(error.code)

const ActiveSwitch = ({ organizationId, active }: { organizationId: string; active: boolean }) => {
  const [setActive, { isLoading, error }] = useSetActiveOrganizationMutation()
  if (active) return <Badge tone="success">Active</Badge>
  return (
    <span className="org-row-action">
      <Button
        size="small"
        pending={isLoading}
        pendingLabel="Switching…"
        onClick={() => void setActive({ organizationId })}
      >
        Make active
      </Button>
      {error ? <Notice tone="error">{organizationMessageFor(error)}</Notice> : null}
    </span>
  )
}

/** One organization: its header and tabs around the page of the tab (members, teams, …). */
export const OrganizationLayout = () => {
  const { organizationId = '' } = useParams()
  const location = useLocation()
  const signedIn = useSignedIn()
  const { data, isLoading, error, refetch, isFetching } = useGetFullOrganizationQuery({ organizationId })
  const viewer = useGetOrganizationViewerQuery({ organizationId }, { skip: !data })
  const strip = useRef<HTMLUListElement>(null)
  useOpenTabInSight(strip)

  if (isLoading || (data && viewer.isLoading)) return <Loading label="Loading the organization…" cards={2} />
  if (!data) {
    if (isOutside(error) || data === null)
      return (
        <>
          <PageHeading title="Organization not available" />
          <Notice tone="error">
            {data === null ? 'This organization does not exist.' : organizationMessageFor(error)}
          </Notice>
          <p>
            <Link to="/account/organizations">Back to your organizations</Link>
          </p>
        </>
      )
    return (
      <>
        <PageHeading title="Organization" />
        <ErrorState
          message={organizationMessageFor(error)}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      </>
    )
  }

  const me = data.members.find((member) => member.userId === signedIn.user.id) ?? null
  const context: OrganizationContext = { ...signedIn, organization: data, me, viewer: viewer.data ?? null }
  const base = `/account/organizations/${data.id}`
  return (
    <>
      <div className="org-header">
        <OrganizationMark organization={data} size={40} />
        <div className="org-row-body">
          <p className="org-header-name">{data.name}</p>
          <p className="muted small">
            <Link to="/account/organizations">All organizations</Link> · {data.slug}
          </p>
        </div>
        <ActiveSwitch organizationId={data.id} active={activeOrganizationIdOf(signedIn) === data.id} />
      </div>
      <nav aria-label="Organization" className="org-tabs">
        <ul ref={strip}>
          {tabsFor(context).map((tab) => (
            <li key={tab.path}>
              <NavLink to={tab.path ? `${base}/${tab.path}` : base} end>
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Notice tone="success">{noticeFrom(location.state)}</Notice>
      <Outlet context={context} />
    </>
  )
}

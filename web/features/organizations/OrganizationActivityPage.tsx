import { useEffect, useRef } from 'react'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { ErrorState } from '../../ui/ErrorState.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { Loading } from '../../ui/Skeleton.js'
import { Time } from '../../ui/Time.js'
import {
  describeOrganizationActivity,
  oneEntryPerAcceptance,
  peopleOf,
} from './describe-organization-activity.js'
import { useOrganization } from './organization-context.js'
import { organizationMessageFor } from './organization-messages.js'
import { useGetOrganizationActivityInfiniteQuery } from './organizations.api.js'
import { RequirePermission } from './RequirePermission.js'

/** The organization's audit feed: who did what, newest first, a page at a time. */
const Feed = () => {
  const { organization } = useOrganization()
  const people = peopleOf(organization)
  const {
    data,
    isLoading,
    error,
    refetch,
    isFetching,
    hasNextPage,
    fetchNextPage,
    isFetchingNextPage,
    isFetchNextPageError,
  } = useGetOrganizationActivityInfiniteQuery({ organizationId: organization.id })
  const firstNew = useRef<number | null>(null)
  const list = useRef<HTMLOListElement>(null)
  const items = oneEntryPerAcceptance(data?.pages.flatMap((page) => page.entries ?? []) ?? [])

  // "Load more" leaves focus on the first new entry, where reading continues.
  useEffect(() => {
    const index = firstNew.current
    if (index === null || items.length <= index) return
    firstNew.current = null
    const entry = list.current?.children.item(index)
    if (entry instanceof HTMLElement) entry.focus()
  })

  if (isLoading) return <Loading label="Loading the organization’s activity…" />
  if (!data)
    return (
      <ErrorState
        message={organizationMessageFor(error)}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    )
  if (items.length === 0) return <p className="empty-state">Nothing has happened here yet.</p>
  const loadMore = () => {
    firstNew.current = items.length
    void fetchNextPage()
  }
  return (
    <>
      <ol ref={list} className="rows activity-list" aria-label="Organization activity">
        {items.map((item) => (
          <li key={item.id} className="activity" tabIndex={-1}>
            <span className="activity-what">{describeOrganizationActivity(item, people)}</span>
            <Time className="activity-when" value={item.at} />
          </li>
        ))}
      </ol>
      {isFetchNextPageError ? (
        <ErrorState
          message={organizationMessageFor(error)}
          onRetry={loadMore}
          retrying={isFetchingNextPage}
        />
      ) : null}
      <div className="activity-more">
        {hasNextPage ? (
          <Button pending={isFetchingNextPage} pendingLabel="Loading…" onClick={loadMore}>
            Load more
          </Button>
        ) : (
          <p className="muted small">That is everything.</p>
        )}
      </div>
    </>
  )
}

export const OrganizationActivityPage = () => {
  const { organization } = useOrganization()
  return (
    <RequirePermission needs={['activity:read']} title="Activity" what="the organization’s activity">
      <PageHeading
        title="Activity"
        documentTitle={`Activity · ${organization.name}`}
        description="Who created, invited, joined, removed or changed what, newest first."
      />
      <Card>
        <Feed />
      </Card>
    </RequirePermission>
  )
}

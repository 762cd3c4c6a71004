import { useEffect, useRef } from 'react'
import { Button } from '../../ui/Button.js'
import { ErrorState } from '../../ui/ErrorState.js'
import { InlineList } from '../../ui/InlineList.js'
import { Loading } from '../../ui/Skeleton.js'
import { Time } from '../../ui/Time.js'
import { messageFor } from '../errors/messages.js'
import type { ActivityItem } from './activity.api.js'
import { useGetActivityInfiniteQuery } from './activity.api.js'
import { describeActivity, placeParts } from './describe-activity.js'

// Entries take focus only from the script (tabIndex -1), after "Load more".
const Entry = ({ item }: { item: ActivityItem }) => {
  const where = placeParts(item)
  return (
    <li className="activity" tabIndex={-1}>
      <span className="activity-what">{describeActivity(item)}</span>
      <Time className="activity-when" value={item.at} />
      {/* Separate facts, so that on a phone a line never ends with a dangling "·". */}
      {where.length > 0 ? <InlineList className="activity-where" items={where} /> : null}
    </li>
  )
}

/** The person's own history, newest first, a page at a time. */
export const ActivityList = () => {
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
  } = useGetActivityInfiniteQuery()
  // "Load more" leaves focus on the first new entry, where reading continues.
  const firstNew = useRef<number | null>(null)
  const items = data?.pages.flatMap((page) => page.items) ?? []
  const list = useRef<HTMLOListElement>(null)

  useEffect(() => {
    const index = firstNew.current
    if (index === null || items.length <= index) return
    firstNew.current = null
    const entry = list.current?.children.item(index)
    if (entry instanceof HTMLElement) entry.focus()
  })

  if (isLoading) return <Loading label="Loading your activity…" />
  if (!data)
    return <ErrorState message={messageFor(error)} onRetry={() => void refetch()} retrying={isFetching} />
  if (items.length === 0) return <p className="empty-state">Nothing has happened on your account yet.</p>

  const loadMore = () => {
    firstNew.current = items.length
    void fetchNextPage()
  }
  return (
    <>
      <ol ref={list} className="rows activity-list" aria-label="Account activity">
        {items.map((item) => (
          <Entry key={item.id} item={item} />
        ))}
      </ol>
      {isFetchNextPageError ? (
        <ErrorState message={messageFor(error)} onRetry={loadMore} retrying={isFetchingNextPage} />
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

import { formatTime } from '../../app/time.js'
import { messageFor } from '../errors/messages.js'
import { FormAlert } from '../forms/Feedback.js'
import { Loading } from '../forms/Loading.js'
import { describeUserAgent } from '../sessions/user-agent.js'
import type { ActivityItem } from './activity.api.js'
import { useGetActivityInfiniteQuery } from './activity.api.js'
import { describeActivity } from './describe-activity.js'

const where = (item: ActivityItem): string | null => {
  const parts = [item.userAgent ? describeUserAgent(item.userAgent) : null, item.ip].filter(Boolean)
  return parts.length > 0 ? parts.join(' · ') : null
}

const Entry = ({ item }: { item: ActivityItem }) => {
  const place = where(item)
  return (
    <li className="activity">
      <span className="activity-what">{describeActivity(item)}</span>
      <time className="activity-when" dateTime={item.at}>
        {formatTime(item.at)}
      </time>
      {place ? <span className="activity-where">{place}</span> : null}
    </li>
  )
}

/** The person's own history, newest first, a page at a time. */
export const ActivityList = () => {
  const { data, isLoading, error, hasNextPage, fetchNextPage, isFetchingNextPage, isFetchNextPageError } =
    useGetActivityInfiniteQuery()
  if (isLoading) return <Loading label="Loading your activity…" />
  if (!data) return <FormAlert>{messageFor(error)}</FormAlert>
  const items = data.pages.flatMap((page) => page.items)
  if (items.length === 0) return <p>Nothing has happened on your account yet.</p>
  return (
    <>
      <ol className="list activity-list" aria-label="Account activity">
        {items.map((item) => (
          <Entry key={item.id} item={item} />
        ))}
      </ol>
      <FormAlert>{isFetchNextPageError ? messageFor(error) : null}</FormAlert>
      {hasNextPage ? (
        <button
          type="button"
          className="button button-quiet"
          disabled={isFetchingNextPage}
          aria-busy={isFetchingNextPage}
          onClick={() => void fetchNextPage()}
        >
          {isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      ) : (
        <p className="hint">That is everything.</p>
      )}
    </>
  )
}

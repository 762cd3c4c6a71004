import { useState } from 'react'
import { Link } from 'react-router'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { SelectField, TextField } from '../../ui/Field.js'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { Loading } from '../../ui/Skeleton.js'
import { Time } from '../../ui/Time.js'
import { useDebounced } from '../../ui/use-debounced.js'
import { messageFor } from '../errors/messages.js'
import { type AdminUser, useListUsersQuery } from './admin.api.js'
import { FILTERS, SORTS, statusesOf, type UserFilter, type UserSort } from './directory-options.js'

export const PAGE_SIZE = 20

/**
 * The user directory: search by email (with an @) or name, one status filter, a stated order
 * (newest first unless chosen), a page at a time; the server does each (list-users).
 */
export const AdminUsersPage = () => {
  const [search, setSearch] = useState('')
  const [filter, setFilter] = useState<UserFilter>('all')
  const [sort, setSort] = useState<UserSort>('newest')
  const [offset, setOffset] = useState(0)
  const settled = useDebounced(search.trim(), 300)
  const { data, error, isFetching } = useListUsersQuery({
    search: settled,
    limit: PAGE_SIZE,
    offset,
    filter,
    sort,
  })
  const total = data?.total ?? 0
  // Any change of what is listed starts again at its first page.
  const restart =
    <Value,>(set: (value: Value) => void) =>
    (value: Value) => {
      set(value)
      setOffset(0)
    }
  return (
    <>
      <PageHeading title="Users" description="Find a person, see their history, and help them." />
      <Card>
        <div className="admin-directory-controls">
          <TextField
            label="Search"
            name="search"
            value={search}
            onChange={restart(setSearch)}
            hint="An email address (with its @) or part of a name."
            optional
            maxLength={256}
            autoCapitalize="none"
          />
          <SelectField
            label="Show"
            name="filter"
            value={filter}
            onChange={restart(setFilter)}
            options={FILTERS}
          />
          <SelectField label="Order" name="sort" value={sort} onChange={restart(setSort)} options={SORTS} />
        </div>
      </Card>
      {error ? (
        <Notice tone="error">{`The directory could not be loaded: ${messageFor(error)}`}</Notice>
      ) : !data ? (
        <Loading label="Loading users…" cards={1} />
      ) : (
        <Card title={`${total} ${total === 1 ? 'user' : 'users'}`}>
          <p className="muted">{`${FILTERS.find((f) => f.value === filter)?.label}, ${SORTS.find((s) => s.value === sort)?.label.toLowerCase()}.`}</p>
          <ul className="admin-user-list" aria-busy={isFetching || undefined}>
            {data.users.map((user) => (
              <DirectoryRow key={user.id} user={user} />
            ))}
          </ul>
          {total > 0 ? <Pager offset={offset} total={total} onMove={setOffset} /> : <p>No user matches.</p>}
        </Card>
      )}
    </>
  )
}

const DirectoryRow = ({ user }: { user: AdminUser }) => (
  <li>
    <Link to={`/admin/users/${user.id}`}>{user.name || user.email}</Link>{' '}
    <span className="muted">{user.email}</span>{' '}
    {statusesOf(user).map((status) => (
      <span key={status.label}>
        <Badge tone={status.tone}>{status.label}</Badge>{' '}
      </span>
    ))}
    <span className="muted admin-user-created">
      Joined <Time value={user.createdAt} />
      {' · '}
      <LastSeen user={user} />
    </span>
  </li>
)

/** When the person last signed in, or that they never have. */
export const LastSeen = ({ user }: { user: AdminUser }) =>
  user.lastSeenAt ? (
    <span>
      Last seen <Time value={user.lastSeenAt} />
    </span>
  ) : (
    <span>Never signed in</span>
  )

const Pager = ({
  offset,
  total,
  onMove,
}: {
  offset: number
  total: number
  onMove: (offset: number) => void
}) => {
  const last = Math.min(offset + PAGE_SIZE, total)
  return (
    <nav aria-label="Pages of users" className="pager">
      <p aria-live="polite">
        {offset + 1}–{last} of {total}
      </p>
      <Button size="small" disabled={offset === 0} onClick={() => onMove(Math.max(0, offset - PAGE_SIZE))}>
        Previous
      </Button>{' '}
      <Button size="small" disabled={last >= total} onClick={() => onMove(offset + PAGE_SIZE)}>
        Next
      </Button>
    </nav>
  )
}

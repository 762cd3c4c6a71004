import { useState } from 'react'
import { Link } from 'react-router'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { TextField } from '../../ui/Field.js'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { Loading } from '../../ui/Skeleton.js'
import { useDebounced } from '../../ui/use-debounced.js'
import { messageFor } from '../errors/messages.js'
import { useListUsersQuery } from './admin.api.js'

export const PAGE_SIZE = 20

/** The user directory: search by email (with an @) or name, newest first, a page at a time. */
export const AdminUsersPage = () => {
  const [search, setSearch] = useState('')
  const [offset, setOffset] = useState(0)
  const settled = useDebounced(search.trim(), 300)
  const { data, error, isFetching } = useListUsersQuery({ search: settled, limit: PAGE_SIZE, offset })
  const total = data?.total ?? 0
  const last = Math.min(offset + PAGE_SIZE, total)
  return (
    <>
      <PageHeading title="Users" description="Find a person, see their history, and help them." />
      <Card>
        <TextField
          label="Search"
          name="search"
          value={search}
          onChange={(value) => {
            setSearch(value)
            setOffset(0)
          }}
          hint="An email address (with its @) or part of a name."
          optional
          maxLength={256}
          autoCapitalize="none"
        />
      </Card>
      {error ? (
        <Notice tone="error">{`The directory could not be loaded: ${messageFor(error)}`}</Notice>
      ) : !data ? (
        <Loading label="Loading users…" cards={1} />
      ) : (
        <Card title={`${total} ${total === 1 ? 'user' : 'users'}`}>
          <ul className="admin-user-list" aria-busy={isFetching || undefined}>
            {data.users.map((user) => (
              <li key={user.id}>
                <Link to={`/admin/users/${user.id}`}>{user.name || user.email}</Link>{' '}
                <span className="muted">{user.email}</span>{' '}
                {user.role.split(',').includes('admin') ? <Badge tone="info">Admin</Badge> : null}{' '}
                {user.banned ? <Badge tone="warning">Banned</Badge> : null}
              </li>
            ))}
          </ul>
          {total > 0 ? (
            <nav aria-label="Pages of users" className="pager">
              <p aria-live="polite">
                {offset + 1}–{last} of {total}
              </p>
              <Button
                size="small"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
              >
                Previous
              </Button>{' '}
              <Button size="small" disabled={last >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>
                Next
              </Button>
            </nav>
          ) : (
            <p>No user matches.</p>
          )}
        </Card>
      )}
    </>
  )
}

import { useState } from 'react'
import { Link } from 'react-router'
import { formatTime } from '../../app/time.js'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { SelectField, TextField } from '../../ui/Field.js'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { Loading } from '../../ui/Skeleton.js'
import { useDebounced } from '../../ui/use-debounced.js'
import { messageFor } from '../errors/messages.js'
import { useAuditQuery } from './admin.api.js'

const ACTIONS = [
  { value: '', label: 'Every action' },
  { value: 'user.registered', label: 'User created' },
  { value: 'user.profile-updated', label: 'Profile updated' },
  { value: 'user.email-changed', label: 'Email changed' },
  { value: 'user.role-set', label: 'Role set' },
  { value: 'user.banned', label: 'Banned' },
  { value: 'user.ban-details-set', label: 'Ban details set' },
  { value: 'user.unbanned', label: 'Unbanned' },
  { value: 'user.password-changed', label: 'Password set' },
  { value: 'user.deleted', label: 'Removed' },
  { value: 'session.started', label: 'Impersonation started' },
  { value: 'session.revoked', label: 'Session ended' },
] as const
type ActionFilter = (typeof ACTIONS)[number]['value']

const PAGE = 50

/** An action in the console's words, the event type beside it for those who search the log. */
const actionLabel = (type: string) =>
  type ? ACTIONS.find((action) => action.value === type)?.label : undefined

/** Every operator action across the service, newest first, filtered by admin and by action. */
export const AdminAuditPage = () => {
  const [actor, setActor] = useState('')
  const [action, setAction] = useState<ActionFilter>('')
  const [offset, setOffset] = useState(0)
  const settledActor = useDebounced(actor.trim(), 300)
  const { data, error } = useAuditQuery({ actor: settledActor, action, offset })
  return (
    <>
      <PageHeading title="Audit" description="What operators did to people's accounts, newest first." />
      <Card>
        <TextField
          label="Admin"
          name="actor"
          value={actor}
          onChange={(value) => {
            setActor(value)
            setOffset(0)
          }}
          hint="The acting admin's address or user id, or a server key's name."
          optional
          maxLength={256}
          autoCapitalize="none"
        />
        <SelectField
          label="Action"
          name="action"
          value={action}
          onChange={(value) => {
            setAction(value)
            setOffset(0)
          }}
          options={ACTIONS}
        />
      </Card>
      {error ? (
        <Notice tone="error">{messageFor(error)}</Notice>
      ) : !data ? (
        <Loading label="Loading the audit…" />
      ) : (
        <Card title={`${data.total} ${data.total === 1 ? 'action' : 'actions'}`}>
          <ol className="admin-activity">
            {data.actions.map((entry) => {
              const label = actionLabel(entry.action)
              return (
                <li key={entry.id}>
                  <time dateTime={entry.at}>{formatTime(entry.at)}</time>
                  {label ? <strong>{label}</strong> : null} <code>{entry.action}</code> by{' '}
                  {entry.actor.type === 'user' && entry.actor.id ? (
                    <Link to={`/admin/users/${entry.actor.id}`}>{entry.actor.email ?? entry.actor.id}</Link>
                  ) : (
                    `${entry.actor.type}${entry.actor.id ? ` ${entry.actor.id}` : ''}`
                  )}
                  {entry.userId ? (
                    <>
                      {' '}
                      on <Link to={`/admin/users/${entry.userId}`}>{entry.userEmail ?? entry.userId}</Link>
                    </>
                  ) : null}
                  {entry.impersonatedBy ? (
                    <>
                      {' '}
                      <Badge tone="info">While impersonating</Badge>
                    </>
                  ) : null}
                </li>
              )
            })}
          </ol>
          <nav aria-label="Pages of the audit" className="pager">
            <Button
              size="small"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - PAGE))}
            >
              Newer
            </Button>{' '}
            <Button
              size="small"
              disabled={offset + PAGE >= data.total}
              onClick={() => setOffset(offset + PAGE)}
            >
              Older
            </Button>
          </nav>
        </Card>
      )}
    </>
  )
}

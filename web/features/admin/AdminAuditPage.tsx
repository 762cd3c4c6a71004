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
import { type AdminAction, useAuditQuery } from './admin.api.js'
import { describeAudit } from './describe-audit.js'

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

/** An account in a sentence: a link to its page while it exists, else "a deleted account". */
const Account = ({ id, email, name }: { id: string | null; email: string | null; name?: string | null }) =>
  id && email !== null ? <Link to={`/admin/users/${id}`}>{name || email}</Link> : <>a deleted account</>

/** Who acted: an operator's account, a server key (the backend's own name for it), or the service. */
const Actor = ({ actor }: { actor: AdminAction['actor'] }) => {
  if (actor.type === 'user') return <Account id={actor.id} email={actor.email} name={actor.name ?? null} />
  if (actor.type === 'server') return <>the server key “{actor.id}”</>
  return <>the service</>
}

const AuditEntry = ({ entry }: { entry: AdminAction }) => {
  const { before, after } = describeAudit(entry)
  return (
    <li>
      <p>
        {before}
        <Account id={entry.userId} email={entry.userEmail} name={entry.userName ?? null} />
        {after}
      </p>
      <p className="muted small">
        By <Actor actor={entry.actor} /> · <Time value={entry.at} />
        {entry.impersonatedBy ? (
          <>
            {' '}
            <Badge tone="info">While impersonating</Badge>
          </>
        ) : null}
      </p>
    </li>
  )
}

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
            {data.actions.map((entry) => (
              <AuditEntry key={entry.id} entry={entry} />
            ))}
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

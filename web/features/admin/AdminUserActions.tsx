import { type RefObject, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { formatTime } from '../../app/time.js'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Confirm } from '../../ui/Confirm.js'
import { SelectField, TextField } from '../../ui/Field.js'
import { FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { Loading } from '../../ui/Skeleton.js'
import { Time } from '../../ui/Time.js'
import { messageFor } from '../errors/messages.js'
import { useUserSessionFactorsQuery } from '../sessions/session-factors.api.js'
import { signInMethodsOf } from '../sessions/sign-in-methods.js'
import { describeUserAgent } from '../sessions/user-agent.js'
import {
  type AdminSession,
  type AdminUser,
  useBanUserMutation,
  useImpersonateUserMutation,
  useListUserSessionsQuery,
  useRemoveUserMutation,
  useRevokeUserSessionMutation,
  useRevokeUserSessionsMutation,
  useUnbanUserMutation,
} from './admin.api.js'

/// The operator's actions that end someone's sessions or act as them: each asks first and names
/// what follows, and none is a full-width red button before the person's details.

const EXPIRIES = [
  { value: '', label: 'Until lifted' },
  { value: '3600', label: '1 hour' },
  { value: '86400', label: '1 day' },
  { value: '604800', label: '1 week' },
  { value: '2592000', label: '30 days' },
] as const
type Expiry = (typeof EXPIRIES)[number]['value']

const nameOf = (user: AdminUser) => user.name || user.email
const refocus = (button: RefObject<HTMLButtonElement | null>) =>
  requestAnimationFrame(() => button.current?.focus())

const BanForm = ({ user }: { user: AdminUser }) => {
  const [reason, setReason] = useState('')
  const [expiry, setExpiry] = useState<Expiry>('')
  const [asking, setAsking] = useState(false)
  const [ban, banning] = useBanUserMutation()
  const opener = useRef<HTMLButtonElement>(null)
  const howLong = expiry
    ? `for ${EXPIRIES.find((e) => e.value === expiry)?.label}`
    : 'until the ban is lifted'
  return (
    <>
      {banning.error ? <Notice tone="error">{messageFor(banning.error)}</Notice> : null}
      <TextField
        label="Reason"
        name="banReason"
        value={reason}
        onChange={setReason}
        optional
        maxLength={1024}
      />
      <SelectField
        label="For how long"
        name="banExpiry"
        value={expiry}
        onChange={setExpiry}
        options={EXPIRIES}
      />
      {asking ? (
        <Confirm
          question={`Ban ${nameOf(user)} ${howLong}?`}
          consequence="Every session of theirs ends at once, and they cannot sign in while the ban lasts."
          confirmLabel={`Ban ${nameOf(user)}`}
          pendingLabel="Banning…"
          pending={banning.isLoading}
          onConfirm={() =>
            void ban({
              userId: user.id,
              ...(reason.trim() ? { banReason: reason.trim() } : {}),
              ...(expiry ? { banExpiresIn: Number(expiry) } : {}),
            })
          }
          onCancel={() => {
            setAsking(false)
            refocus(opener)
          }}
        />
      ) : (
        <FormActions>
          <Button ref={opener} variant="danger-outline" onClick={() => setAsking(true)}>
            Ban {nameOf(user)}…
          </Button>
        </FormActions>
      )}
    </>
  )
}

export const BanCard = ({ user }: { user: AdminUser }) => {
  const [unban, unbanning] = useUnbanUserMutation()
  if (!user.banned)
    return (
      <Card title="Ban" description="Ends every session at once; no sign-in works until the ban ends.">
        <BanForm user={user} />
      </Card>
    )
  return (
    <Card
      title="Banned"
      description={`Reason: ${user.banReason ?? 'none given'}${user.banExpires ? `; until ${formatTime(user.banExpires)}` : ''}.`}
    >
      {unbanning.error ? <Notice tone="error">{messageFor(unbanning.error)}</Notice> : null}
      <FormActions>
        <Button
          pending={unbanning.isLoading}
          pendingLabel="Lifting…"
          onClick={() => unban({ userId: user.id })}
        >
          Lift the ban
        </Button>
      </FormActions>
    </Card>
  )
}

const SessionRow = ({ session, user }: { session: AdminSession; user: AdminUser }) => {
  const [asking, setAsking] = useState(false)
  const [revoke, revoking] = useRevokeUserSessionMutation()
  const opener = useRef<HTMLButtonElement>(null)
  const device = describeUserAgent(session.userAgent ?? null)
  const factors = useUserSessionFactorsQuery(user.id).data
  const methods = signInMethodsOf(factors?.find((entry) => entry.id === session.id)?.amr)
  return (
    <li>
      <span>
        {device} · {session.ipAddress ?? 'unknown address'} · since <Time value={session.createdAt} />
        {methods ? ` · with ${methods}` : null}
        {session.impersonatedBy ? (
          <>
            {' '}
            <Badge tone="warning">Support</Badge>
          </>
        ) : null}
      </span>
      {asking ? (
        <Confirm
          size="small"
          question={`End this session of ${nameOf(user)}?`}
          consequence={`${device} is signed out and must sign in again.`}
          confirmLabel="End session"
          pendingLabel="Ending…"
          pending={revoking.isLoading}
          onConfirm={async () => {
            const result = await revoke({ sessionToken: session.token })
            if (!('error' in result)) setAsking(false)
          }}
          onCancel={() => {
            setAsking(false)
            refocus(opener)
          }}
        />
      ) : (
        <Button ref={opener} size="small" onClick={() => setAsking(true)}>
          End…<span className="visually-hidden"> the session on {device}</span>
        </Button>
      )}
    </li>
  )
}

export const SessionsCard = ({ user }: { user: AdminUser }) => {
  const { data, error } = useListUserSessionsQuery(user.id)
  const [revokeAll, all] = useRevokeUserSessionsMutation()
  const [asking, setAsking] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)
  if (error) return <Notice tone="error">{messageFor(error)}</Notice>
  if (!data) return <Loading label="Loading sessions…" />
  const count = data.sessions.length
  return (
    <Card title="Sessions">
      {count === 0 ? <p>No open session.</p> : null}
      <ul className="admin-session-list">
        {data.sessions.map((session) => (
          <SessionRow key={session.id} session={session} user={user} />
        ))}
      </ul>
      {count === 0 ? null : asking ? (
        <Confirm
          question={`End every session of ${nameOf(user)}?`}
          consequence={`${count === 1 ? 'Their one device is' : `All ${count} of their devices are`} signed out; they must sign in again.`}
          confirmLabel="End every session"
          pendingLabel="Ending…"
          pending={all.isLoading}
          onConfirm={async () => {
            await revokeAll({ userId: user.id })
            setAsking(false)
          }}
          onCancel={() => {
            setAsking(false)
            refocus(opener)
          }}
        />
      ) : (
        <FormActions>
          <Button ref={opener} variant="danger-outline" onClick={() => setAsking(true)}>
            End every session…
          </Button>
        </FormActions>
      )}
    </Card>
  )
}

type Asking = 'nothing' | 'impersonate' | 'remove'

export const DangerCard = ({ user }: { user: AdminUser }) => {
  const [asking, setAsking] = useState<Asking>('nothing')
  const impersonateButton = useRef<HTMLButtonElement>(null)
  const removeButton = useRef<HTMLButtonElement>(null)
  const [remove, removing] = useRemoveUserMutation()
  const [impersonate, impersonating] = useImpersonateUserMutation()
  const navigate = useNavigate()
  const failure = removing.error ?? impersonating.error
  const cancel = (button: RefObject<HTMLButtonElement | null>) => () => {
    setAsking('nothing')
    removing.reset()
    impersonating.reset()
    refocus(button)
  }
  return (
    <Card title="Act as this person, or remove them" tone="danger">
      {failure ? <Notice tone="error">{messageFor(failure)}</Notice> : null}
      {asking === 'impersonate' ? (
        <Confirm
          question={`Act as ${nameOf(user)} for an hour?`}
          consequence="You are signed in as them until you stop or the hour ends; everything you do is recorded as support acting on their behalf."
          confirmLabel={`Impersonate ${nameOf(user)}`}
          pendingLabel="Opening…"
          pending={impersonating.isLoading}
          onConfirm={async () => {
            const result = await impersonate({ userId: user.id })
            if (!('error' in result)) navigate('/account')
          }}
          onCancel={cancel(impersonateButton)}
        />
      ) : asking === 'remove' ? (
        <Confirm
          question={`Remove ${user.email}?`}
          consequence="Their sessions end and their personal data is erased for good."
          confirmLabel={`Remove ${nameOf(user)}`}
          pendingLabel="Removing…"
          pending={removing.isLoading}
          onConfirm={async () => {
            const result = await remove({ userId: user.id })
            if (!('error' in result)) navigate('/admin/users')
          }}
          onCancel={cancel(removeButton)}
        />
      ) : (
        <FormActions>
          <Button ref={impersonateButton} onClick={() => setAsking('impersonate')}>
            Impersonate for an hour…
          </Button>
          <Button ref={removeButton} variant="danger-outline" onClick={() => setAsking('remove')}>
            Remove user…
          </Button>
        </FormActions>
      )}
    </Card>
  )
}

import { useRef, useState } from 'react'
import { useNavigate, useParams } from 'react-router'
import { formatTime } from '../../app/time.js'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Confirm } from '../../ui/Confirm.js'
import { SelectField, TextField } from '../../ui/Field.js'
import { FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { Loading } from '../../ui/Skeleton.js'
import { messageFor } from '../errors/messages.js'
import { describeUserAgent } from '../sessions/user-agent.js'
import {
  type ActivityItem,
  type AdminUser,
  type UserOverview,
  useBanUserMutation,
  useGetUserQuery,
  useImpersonateUserMutation,
  useListUserSessionsQuery,
  useRemoveUserMutation,
  useRevokeUserSessionMutation,
  useRevokeUserSessionsMutation,
  useSendPasswordResetMutation,
  useSetRoleMutation,
  useSetUserPasswordMutation,
  useUnbanUserMutation,
  useUserActivityQuery,
  useUserOverviewQuery,
} from './admin.api.js'
import { describeForOperator } from './describe-for-operator.js'

const EXPIRIES = [
  { value: '', label: 'Until lifted' },
  { value: '3600', label: '1 hour' },
  { value: '86400', label: '1 day' },
  { value: '604800', label: '1 week' },
  { value: '2592000', label: '30 days' },
] as const
type Expiry = (typeof EXPIRIES)[number]['value']

const ROLES = [
  { value: 'user', label: 'User' },
  { value: 'admin', label: 'Admin' },
] as const
type Role = (typeof ROLES)[number]['value']

/** A stored role string (several roles, comma separated) in the console's words. */
const roleLabels = (stored: string) =>
  stored
    .split(',')
    .map((name) => ROLES.find((role) => role.value === name.trim())?.label ?? name.trim())
    .join(', ')

const BanCard = ({ user }: { user: AdminUser }) => {
  const [reason, setReason] = useState('')
  const [expiry, setExpiry] = useState<Expiry>('')
  const [ban, banning] = useBanUserMutation()
  const [unban, unbanning] = useUnbanUserMutation()
  const failure = banning.error ?? unbanning.error
  if (user.banned)
    return (
      <Card
        title="Banned"
        tone="danger"
        description={`Reason: ${user.banReason ?? 'none given'}${user.banExpires ? `; until ${formatTime(user.banExpires)}` : ''}.`}
      >
        {failure ? <Notice tone="error">{messageFor(failure)}</Notice> : null}
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
  return (
    <Card
      title="Ban"
      tone="danger"
      description="Ends every session at once; no sign-in works until the ban ends."
    >
      {failure ? <Notice tone="error">{messageFor(failure)}</Notice> : null}
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
      <FormActions>
        <Button
          variant="danger"
          pending={banning.isLoading}
          pendingLabel="Banning…"
          onClick={() =>
            ban({
              userId: user.id,
              ...(reason.trim() ? { banReason: reason.trim() } : {}),
              ...(expiry ? { banExpiresIn: Number(expiry) } : {}),
            })
          }
        >
          Ban {user.name || user.email}
        </Button>
      </FormActions>
    </Card>
  )
}

const RoleAndPasswordCard = ({ user }: { user: AdminUser }) => {
  const [role, setRole] = useState<Role>(user.role.split(',').includes('admin') ? 'admin' : 'user')
  const [password, setPassword] = useState('')
  const [saveRole, roleState] = useSetRoleMutation()
  const [savePassword, passwordState] = useSetUserPasswordMutation()
  const [sendReset, resetState] = useSendPasswordResetMutation()
  return (
    <Card title="Role and password">
      {roleState.error ? <Notice tone="error">{messageFor(roleState.error)}</Notice> : null}
      <SelectField label="Role" name="role" value={role} onChange={setRole} options={ROLES} />
      <FormActions>
        <Button
          pending={roleState.isLoading}
          pendingLabel="Saving…"
          onClick={() => saveRole({ userId: user.id, role })}
        >
          Set role
        </Button>
      </FormActions>
      {passwordState.error ? <Notice tone="error">{messageFor(passwordState.error)}</Notice> : null}
      {passwordState.isSuccess ? <Notice tone="success">The password was set.</Notice> : null}
      <TextField
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
      />
      <FormActions>
        <Button
          pending={passwordState.isLoading}
          pendingLabel="Setting…"
          disabled={password.length === 0}
          onClick={async () => {
            const result = await savePassword({ userId: user.id, newPassword: password })
            if (!('error' in result)) setPassword('')
          }}
        >
          Set password
        </Button>
        <Button
          pending={resetState.isLoading}
          pendingLabel="Sending…"
          onClick={() => sendReset({ email: user.email })}
        >
          Send a password reset link
        </Button>
      </FormActions>
      {resetState.error ? <Notice tone="error">{messageFor(resetState.error)}</Notice> : null}
      {resetState.isSuccess ? (
        <Notice tone="success">
          A reset link was sent to {user.email}, if that address can receive mail.
        </Notice>
      ) : null}
    </Card>
  )
}

const SessionsCard = ({ userId }: { userId: string }) => {
  const { data, error } = useListUserSessionsQuery(userId)
  const [revoke] = useRevokeUserSessionMutation()
  const [revokeAll, all] = useRevokeUserSessionsMutation()
  if (error) return <Notice tone="error">{messageFor(error)}</Notice>
  if (!data) return <Loading label="Loading sessions…" />
  return (
    <Card
      title="Sessions"
      footer={
        data.sessions.length > 0 ? (
          <Button
            variant="danger-outline"
            pending={all.isLoading}
            pendingLabel="Ending…"
            onClick={() => revokeAll({ userId })}
          >
            End every session
          </Button>
        ) : null
      }
    >
      {data.sessions.length === 0 ? <p>No open session.</p> : null}
      <ul className="admin-session-list">
        {data.sessions.map((session) => (
          <li key={session.id}>
            <span>
              {describeUserAgent(session.userAgent)} · {session.ipAddress ?? 'unknown address'} · since{' '}
              {formatTime(session.createdAt)}
              {session.impersonatedBy ? (
                <>
                  {' '}
                  <Badge tone="warning">Support</Badge>
                </>
              ) : null}
            </span>
            <Button size="small" onClick={() => revoke({ sessionToken: session.token })}>
              End
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  )
}

const PROVIDER_NAMES: Readonly<Record<string, string>> = { credential: 'Email and password' }

const AccountsCard = ({ overview }: { overview: UserOverview }) => (
  <Card title="Sign-in accounts" description="The password and every linked provider.">
    {overview.accounts.length === 0 ? <p>No way to sign in.</p> : null}
    <ul className="admin-account-list">
      {overview.accounts.map((account) => (
        <li key={account.id}>
          <strong>{PROVIDER_NAMES[account.providerId] ?? account.providerId}</strong>{' '}
          {account.providerId === 'credential' ? null : <code>{account.accountId}</code>} ·{' '}
          {account.providerId === 'credential' ? 'since' : 'linked'} {formatTime(account.createdAt)}
        </li>
      ))}
    </ul>
  </Card>
)

const OrganizationsCard = ({ overview }: { overview: UserOverview }) => (
  <Card title="Organizations">
    {overview.organizations.length === 0 ? <p>Member of no organization.</p> : null}
    <ul className="admin-account-list">
      {overview.organizations.map((organization) => (
        <li key={organization.id}>
          <strong>{organization.name}</strong> <code>{organization.slug}</code> ·{' '}
          {organization.role.split(',').join(', ')}
        </li>
      ))}
    </ul>
  </Card>
)

/** Organization names the page knows: the person's memberships, and those named in the history. */
const organizationNames = (overview: UserOverview | undefined, items: readonly ActivityItem[]) => {
  const names = new Map<string, string>()
  for (const item of items) {
    const { organizationId, name } = item.details
    if (typeof organizationId === 'string' && typeof name === 'string') names.set(organizationId, name)
  }
  for (const organization of overview?.organizations ?? []) names.set(organization.id, organization.name)
  return names
}

const ActivityCard = ({ userId, overview }: { userId: string; overview: UserOverview | undefined }) => {
  const { data, error } = useUserActivityQuery(userId)
  if (error) return <Notice tone="error">{messageFor(error)}</Notice>
  if (!data) return <Loading label="Loading history…" />
  const names = organizationNames(overview, data.items)
  return (
    <Card title="History" description="What happened to this account, newest first, from the log.">
      {data.items.length === 0 ? <p>Nothing yet.</p> : null}
      <ol className="admin-activity">
        {data.items.map((item) => (
          <li key={item.id}>
            <time dateTime={item.at}>{formatTime(item.at)}</time> {describeForOperator(item, names)}
            {item.details.bySupport ? (
              <>
                {' '}
                <Badge tone="info">By support</Badge>
              </>
            ) : null}
          </li>
        ))}
      </ol>
    </Card>
  )
}

const DangerCard = ({ user }: { user: AdminUser }) => {
  const [confirming, setConfirming] = useState(false)
  const removeButton = useRef<HTMLButtonElement>(null)
  const [remove, removing] = useRemoveUserMutation()
  const [impersonate, impersonating] = useImpersonateUserMutation()
  const navigate = useNavigate()
  const failure = removing.error ?? impersonating.error
  return (
    <Card title="Act as this person, or remove them" tone="danger">
      {failure ? <Notice tone="error">{messageFor(failure)}</Notice> : null}
      {confirming ? (
        <Confirm
          question={`Remove ${user.email}?`}
          consequence="Their sessions end and their personal data is erased for good."
          confirmLabel={`Remove ${user.name || user.email}`}
          pendingLabel="Removing…"
          pending={removing.isLoading}
          onConfirm={async () => {
            const result = await remove({ userId: user.id })
            if (!('error' in result)) navigate('/admin/users')
          }}
          onCancel={() => {
            setConfirming(false)
            removing.reset()
            requestAnimationFrame(() => removeButton.current?.focus())
          }}
        />
      ) : (
        <FormActions>
          <Button
            pending={impersonating.isLoading}
            pendingLabel="Opening…"
            onClick={async () => {
              const result = await impersonate({ userId: user.id })
              if (!('error' in result)) navigate('/account')
            }}
          >
            Impersonate for an hour
          </Button>
          <Button ref={removeButton} variant="danger-outline" onClick={() => setConfirming(true)}>
            Remove user…
          </Button>
        </FormActions>
      )}
    </Card>
  )
}

/** One user: profile, status, roles, sign-in accounts, organizations, sessions, history, and the operator's actions. */
export const AdminUserPage = () => {
  const { userId = '' } = useParams()
  const { data: user, error } = useGetUserQuery(userId)
  const overview = useUserOverviewQuery(userId)
  if (error) return <Notice tone="error">{messageFor(error)}</Notice>
  if (!user) return <Loading label="Loading the user…" cards={3} />
  return (
    <>
      <PageHeading title={user.name || user.email} description={user.email} />
      <Card title="Profile">
        <dl className="admin-profile">
          <dt>Email</dt>
          <dd>
            {user.email}{' '}
            {user.emailVerified ? (
              <Badge tone="success">Verified</Badge>
            ) : (
              <Badge tone="warning">Unverified</Badge>
            )}
          </dd>
          <dt>Username</dt>
          <dd>{user.displayUsername ?? '—'}</dd>
          <dt>Roles</dt>
          <dd>{roleLabels(user.role)}</dd>
          <dt>Status</dt>
          <dd>{user.banned ? 'Banned' : 'Active'}</dd>
          <dt>Since</dt>
          <dd>{formatTime(user.createdAt)}</dd>
        </dl>
      </Card>
      <BanCard user={user} />
      <RoleAndPasswordCard key={user.role} user={user} />
      {overview.error ? <Notice tone="error">{messageFor(overview.error)}</Notice> : null}
      {overview.data ? (
        <>
          <AccountsCard overview={overview.data} />
          <OrganizationsCard overview={overview.data} />
        </>
      ) : null}
      <SessionsCard userId={user.id} />
      <ActivityCard userId={user.id} overview={overview.data} />
      <DangerCard user={user} />
    </>
  )
}

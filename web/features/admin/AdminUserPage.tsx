import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { SelectField, TextField } from '../../ui/Field.js'
import { FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { Loading } from '../../ui/Skeleton.js'
import { Time } from '../../ui/Time.js'
import { messageFor } from '../errors/messages.js'
import { BanCard, DangerCard, SessionsCard } from './AdminUserActions.js'
import {
  type ActivityItem,
  type AdminUser,
  type UserOverview,
  useGetUserQuery,
  useSendPasswordResetMutation,
  useSetRoleMutation,
  useSetUserPasswordMutation,
  useUserActivityQuery,
  useUserOverviewQuery,
} from './admin.api.js'
import { describeForOperator } from './describe-for-operator.js'

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

const PROVIDER_NAMES: Readonly<Record<string, string>> = { credential: 'Email and password' }

const AccountsCard = ({ overview }: { overview: UserOverview }) => (
  <Card title="Sign-in accounts" description="The password and every linked provider.">
    {overview.accounts.length === 0 ? <p>No way to sign in.</p> : null}
    <ul className="admin-account-list">
      {overview.accounts.map((account) => (
        <li key={account.id}>
          <strong>{PROVIDER_NAMES[account.providerId] ?? account.providerId}</strong>{' '}
          {account.providerId === 'credential' ? null : <code>{account.accountId}</code>} ·{' '}
          {account.providerId === 'credential' ? 'since' : 'linked'} <Time value={account.createdAt} />
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
            <Time value={item.at} /> {describeForOperator(item, names)}
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

/** One user: profile, status, roles, sign-in accounts, organizations, sessions, history, and the operator's actions. */
export const AdminUserPage = () => {
  const { userId = '' } = useParams()
  const { data: user, error } = useGetUserQuery(userId)
  const overview = useUserOverviewQuery(userId)
  if (error) return <Notice tone="error">{messageFor(error)}</Notice>
  if (!user) return <Loading label="Loading the user…" cards={3} />
  return (
    <>
      <p className="back-link">
        <Link to="/admin/users">← All users</Link>
      </p>
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
          <dd>
            {user.banned ? (
              <>
                <Badge tone="warning">Banned</Badge> {user.banReason ?? 'no reason given'}
                {user.banExpires ? (
                  <>
                    , until <Time value={user.banExpires} />
                  </>
                ) : (
                  ', until lifted'
                )}
              </>
            ) : (
              'Active'
            )}
          </dd>
          <dt>Since</dt>
          <dd>
            <Time value={user.createdAt} />
          </dd>
          <dt>Last seen</dt>
          <dd>{user.lastSeenAt ? <Time value={user.lastSeenAt} /> : 'Never signed in'}</dd>
        </dl>
      </Card>
      <RoleAndPasswordCard key={user.role} user={user} />
      {overview.error ? <Notice tone="error">{messageFor(overview.error)}</Notice> : null}
      {overview.data ? (
        <>
          <AccountsCard overview={overview.data} />
          <OrganizationsCard overview={overview.data} />
        </>
      ) : null}
      <SessionsCard user={user} />
      <ActivityCard userId={user.id} overview={overview.data} />
      <BanCard user={user} />
      <DangerCard user={user} />
    </>
  )
}

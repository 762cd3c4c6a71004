import { useState } from 'react'
import { Button, SubmitButton } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Checkbox, TextField } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { isApiError } from '../errors/api-error.js'
import { type FormErrors, fieldErrors, noErrors } from '../errors/form-errors.js'
import { checkRequired } from '../forms/checks.js'
import type { OrganizationContext } from './organization-context.js'
import { organizationMessageFor, placeOrganizationError } from './organization-messages.js'
import {
  type CustomRole,
  useCreateRoleMutation,
  useDeleteRoleMutation,
  useListRolesQuery,
  useUpdateRoleMutation,
} from './organizations.api.js'

/// Custom roles (dynamic access control): an organization's own roles, each a set of permission
/// statements, created, changed and deleted here. Off by default on the server, whose role routes
/// then do not exist (404): the section is not shown at all.

type Permission = Record<string, string[]>

/** The statements a custom role can grant, as the server's access control names them. */
const STATEMENTS: readonly { resource: string; label: string; actions: readonly string[] }[] = [
  { resource: 'organization', label: 'Organization', actions: ['update', 'delete'] },
  { resource: 'member', label: 'Members', actions: ['create', 'update', 'delete'] },
  { resource: 'invitation', label: 'Invitations', actions: ['create', 'cancel'] },
  { resource: 'team', label: 'Teams', actions: ['create', 'update', 'delete'] },
  { resource: 'ac', label: 'Roles', actions: ['create', 'read', 'update', 'delete'] },
]

const ROLE_NAME_MAX = 64

const granted = (permission: Permission, resource: string, action: string) =>
  permission[resource]?.includes(action) ?? false

const toggled = (permission: Permission, resource: string, action: string, on: boolean): Permission => {
  const actions = new Set(permission[resource] ?? [])
  if (on) actions.add(action)
  else actions.delete(action)
  const next = { ...permission, [resource]: [...actions] }
  if (actions.size === 0) delete next[resource]
  return next
}

/** "Members: create, update · Teams: create" */
export const describePermission = (permission: Permission): string => {
  const parts = STATEMENTS.filter(({ resource }) => (permission[resource]?.length ?? 0) > 0).map(
    ({ resource, label }) => `${label}: ${(permission[resource] ?? []).join(', ')}`,
  )
  return parts.length === 0 ? 'No permissions' : parts.join(' · ')
}

const PermissionChecks = ({
  name,
  value,
  onChange,
}: {
  name: string
  value: Permission
  onChange: (next: Permission) => void
}) => (
  <div className="permission-grid">
    {STATEMENTS.map(({ resource, label, actions }) => (
      <fieldset key={resource}>
        <legend>{label}</legend>
        {actions.map((action) => (
          <Checkbox
            key={action}
            label={
              <>
                <span className="visually-hidden">{label}: </span>
                {action}
              </>
            }
            name={`${name}-${resource}-${action}`}
            checked={granted(value, resource, action)}
            onChange={(on) => onChange(toggled(value, resource, action, on))}
          />
        ))}
      </fieldset>
    ))}
  </div>
)

type Field = 'role'

const CreateRole = ({ organizationId }: { organizationId: string }) => {
  const [create, { isLoading }] = useCreateRoleMutation()
  const [role, setRole] = useState('')
  const [permission, setPermission] = useState<Permission>({})
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [created, setCreated] = useState<string | null>(null)
  const onSubmit = async () => {
    if (isLoading) return
    setCreated(null)
    const problems = fieldErrors<Field>({ role: checkRequired(role, 'a name for the role') })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      await create({ organizationId, role: role.trim(), permission }).unwrap()
      setCreated(`The role ${role.trim()} is created.`)
      setRole('')
      setPermission({})
    } catch (error) {
      setErrors(placeOrganizationError<Field>(error, { ROLE_NAME_IS_ALREADY_TAKEN: 'role' }, ['role']))
    }
  }
  return (
    <Form label="Create a role" onSubmit={onSubmit} errors={errors}>
      <h3 className="section-heading">Create a role</h3>
      <TextField
        label="Role name"
        name="role"
        maxLength={ROLE_NAME_MAX}
        value={role}
        onChange={setRole}
        error={errors.fields.role}
      />
      <PermissionChecks name="new-role" value={permission} onChange={setPermission} />
      <FormActions>
        <SubmitButton pending={isLoading} pendingLabel="Creating…">
          Create role
        </SubmitButton>
      </FormActions>
      <Notice tone="success">{created}</Notice>
    </Form>
  )
}

const RoleRow = ({ role }: { role: CustomRole }) => {
  const [editing, setEditing] = useState(false)
  const [permission, setPermission] = useState<Permission>(role.permission)
  const [update, updating] = useUpdateRoleMutation()
  const [remove, removing] = useDeleteRoleMutation()
  const refusal = updating.error ?? removing.error
  const save = async () => {
    const result = await update({ organizationId: role.organizationId, roleId: role.id, permission })
    if (!('error' in result)) setEditing(false)
  }
  return (
    <li className="org-row">
      <div className="org-row-body">
        <p className="org-row-name">
          <strong>{role.role}</strong>
        </p>
        {editing ? (
          <PermissionChecks name={`role-${role.id}`} value={permission} onChange={setPermission} />
        ) : (
          <p className="muted small">{describePermission(role.permission)}</p>
        )}
        {refusal ? <Notice tone="error">{organizationMessageFor(refusal)}</Notice> : null}
      </div>
      <div className="org-row-action">
        {editing ? (
          <>
            <Button
              size="small"
              variant="primary"
              pending={updating.isLoading}
              pendingLabel="Saving…"
              onClick={() => void save()}
            >
              Save<span className="visually-hidden"> {role.role}</span>
            </Button>
            <Button
              size="small"
              onClick={() => {
                setEditing(false)
                setPermission(role.permission)
                updating.reset()
              }}
            >
              Cancel
            </Button>
          </>
        ) : (
          <>
            <Button size="small" onClick={() => setEditing(true)}>
              Change permissions<span className="visually-hidden"> of {role.role}</span>
            </Button>
            <Button
              size="small"
              variant="danger-outline"
              pending={removing.isLoading}
              pendingLabel="Deleting…"
              onClick={() => void remove({ organizationId: role.organizationId, roleId: role.id })}
            >
              Delete<span className="visually-hidden"> {role.role}</span>
            </Button>
          </>
        )}
      </div>
    </li>
  )
}

export const CustomRoles = ({ context }: { context: OrganizationContext }) => {
  const organizationId = context.organization.id
  const { data, error } = useListRolesQuery({ organizationId })
  // Dynamic access control is off: the server has no role routes.
  if (isApiError(error) && error.status === 404) return null
  return (
    <Card
      title="Custom roles"
      description="Roles of this organization’s own, each granting the permissions ticked. A role someone holds cannot be deleted."
    >
      {error ? <Notice tone="error">{organizationMessageFor(error)}</Notice> : null}
      {data && data.length === 0 ? <p className="empty-state">No custom role yet.</p> : null}
      {data && data.length > 0 ? (
        <ul className="rows" aria-label="Custom roles">
          {data.map((role) => (
            <RoleRow key={role.id} role={role} />
          ))}
        </ul>
      ) : null}
      <CreateRole organizationId={organizationId} />
    </Card>
  )
}

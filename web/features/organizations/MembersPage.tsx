import { useId, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { Avatar } from '../../ui/Avatar.js'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Confirm } from '../../ui/Confirm.js'
import { SelectField } from '../../ui/Field.js'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { type OrganizationContext, useOrganization } from './organization-context.js'
import { ONLY_OWNER_CANNOT_LEAVE, organizationMessageFor } from './organization-messages.js'
import {
  type Member,
  useLeaveOrganizationMutation,
  useRemoveMemberMutation,
  useUpdateMemberRoleMutation,
} from './organizations.api.js'
import { assignableRoles, can, ROLE_LABELS, roleLabel, rolesIn } from './roles.js'
import { closing } from './sentence.js'

/** The role picker of one member, with its own Save and its own refusal. */
const RoleEditor = ({ member, context }: { member: Member; context: OrganizationContext }) => {
  const [role, setRole] = useState(member.role)
  const [update, { isLoading, error, reset }] = useUpdateMemberRoleMutation()
  const [saved, setSaved] = useState(false)
  const select = useRef<HTMLSelectElement>(null)
  const choices = assignableRoles(context.me?.role ?? '')
  // A role the person may not hand out (or a custom one) stays listed, so the select shows the truth.
  const options = [
    ...choices.map((value) => ({ value: value as string, label: ROLE_LABELS[value] })),
    ...(choices.some((value) => value === member.role)
      ? []
      : [{ value: member.role, label: roleLabel(member.role) }]),
  ]
  const save = async () => {
    setSaved(false)
    const result = await update({ organizationId: member.organizationId, memberId: member.id, role })
    if ('error' in result) return
    setSaved(true)
    // Save goes away with the change: focus stays on the role it changed.
    select.current?.focus()
  }
  return (
    <>
      <SelectField
        label={`Role of ${member.user.name}`}
        name="role"
        value={role}
        onChange={(value) => {
          setRole(value)
          setSaved(false)
          reset()
        }}
        options={options}
        selectRef={select}
        hideLabel
      />
      {role !== member.role ? (
        <Button size="small" pending={isLoading} pendingLabel="Saving…" onClick={() => void save()}>
          Save role
        </Button>
      ) : null}
      {error ? (
        <Notice tone="error">{organizationMessageFor(error)}</Notice>
      ) : saved ? (
        <Notice tone="success">{`${member.user.name} is now ${roleLabel(role)}.`}</Notice>
      ) : null}
    </>
  )
}

type RowProps = { member: Member; context: OrganizationContext; onGone: () => void }

const MemberRow = ({ member, context, onGone }: RowProps) => {
  const navigate = useNavigate()
  const headingId = useId()
  const isMe = member.userId === context.user.id
  const myRole = context.me?.role ?? ''
  const [asking, setAsking] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)
  const [remove, removal] = useRemoveMemberMutation()
  const [leave, leaving] = useLeaveOrganizationMutation()
  const refusal = removal.error ?? leaving.error
  // An admin cannot change an owner, and nobody edits themselves here (the last owner must stay).
  const canEdit =
    !isMe &&
    can(myRole, 'member:update') &&
    (rolesIn(myRole).includes('owner') || !rolesIn(member.role).includes('owner'))
  const canRemove = !isMe && can(myRole, 'member:delete')
  // The server refuses to let the only owner leave; say so up front instead of offering a button
  // that can only fail. (The refusal below still covers a list that changed meanwhile.)
  const onlyOwner =
    isMe &&
    rolesIn(member.role).includes('owner') &&
    !context.organization.members.some(
      (other) => other.userId !== member.userId && rolesIn(other.role).includes('owner'),
    )

  const confirm = async () => {
    if (isMe) {
      const result = await leave({ organizationId: member.organizationId })
      if ('error' in result) return
      navigate('/account/organizations', {
        replace: true,
        state: { notice: `You left ${closing(context.organization.name)}` },
      })
      return
    }
    const result = await remove({ organizationId: member.organizationId, memberIdOrEmail: member.id })
    // The row goes away with the person: focus goes to the list's heading, not to the page's start.
    if (!('error' in result)) onGone()
  }
  const cancel = () => {
    setAsking(false)
    removal.reset()
    leaving.reset()
    requestAnimationFrame(() => opener.current?.focus())
  }

  return (
    <li className="member" aria-labelledby={headingId}>
      <Avatar
        user={{ name: member.user.name, email: member.user.email, image: member.user.image ?? null }}
        size={36}
      />
      <div className="member-body">
        <p id={headingId}>
          <strong>{member.user.name}</strong> {isMe ? <Badge tone="info">You</Badge> : null}
        </p>
        <p className="muted small">{member.user.email}</p>
        {canEdit ? null : <p className="small">{roleLabel(member.role)}</p>}
        {onlyOwner ? <p className="muted small">{ONLY_OWNER_CANNOT_LEAVE}</p> : null}
      </div>
      <div className="member-actions">
        {canEdit ? <RoleEditor member={member} context={context} /> : null}
        {!onlyOwner && !asking && (isMe || canRemove) ? (
          <Button
            ref={opener}
            size="small"
            variant="danger-outline"
            aria-describedby={headingId}
            onClick={() => setAsking(true)}
          >
            {isMe ? 'Leave organization' : 'Remove'}
          </Button>
        ) : null}
      </div>
      {asking ? (
        <Confirm
          question={
            isMe
              ? `Leave ${context.organization.name}? You will need a new invitation to come back.`
              : `Remove ${member.user.name} from ${context.organization.name}?`
          }
          confirmLabel={isMe ? 'Leave' : `Remove ${member.user.name}`}
          pendingLabel={isMe ? 'Leaving…' : 'Removing…'}
          pending={removal.isLoading || leaving.isLoading}
          onConfirm={() => void confirm()}
          onCancel={cancel}
        />
      ) : null}
      {refusal ? <Notice tone="error">{organizationMessageFor(refusal)}</Notice> : null}
    </li>
  )
}

export const MembersPage = () => {
  const context = useOrganization()
  const { organization } = context
  const count = organization.members.length
  const heading = useRef<HTMLHeadingElement>(null)
  return (
    <>
      <PageHeading
        title="Members"
        documentTitle={`Members · ${organization.name}`}
        description={
          count === 1
            ? 'One person belongs to this organization.'
            : `${count} people belong to this organization.`
        }
      />
      <Card title="People" headingRef={heading}>
        <ul className="rows" aria-label="Members">
          {organization.members.map((member) => (
            <MemberRow
              key={member.id}
              member={member}
              context={context}
              onGone={() => requestAnimationFrame(() => heading.current?.focus())}
            />
          ))}
        </ul>
      </Card>
    </>
  )
}

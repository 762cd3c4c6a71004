import { useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { Badge } from '../../ui/Badge.js'
import { Button, SubmitButton } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { ErrorState } from '../../ui/ErrorState.js'
import { TextField } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { Loading } from '../../ui/Skeleton.js'
import { noticeFrom } from '../auth/navigation-state.js'
import { type FormErrors, fieldErrors, noErrors } from '../errors/form-errors.js'
import { checkRequired } from '../forms/checks.js'
import { useSignedIn } from '../session/RequireSession.js'
import { OrganizationMark } from './OrganizationMark.js'
import { activeOrganizationIdOf } from './organization-context.js'
import { organizationMessageFor, placeOrganizationError } from './organization-messages.js'
import {
  type Organization,
  useCreateOrganizationMutation,
  useListOrganizationsQuery,
  useSetActiveOrganizationMutation,
} from './organizations.api.js'
import { checkSlug, NAME_MAX, SLUG_MAX, slugify } from './slug.js'
import { SlugAvailability, useSlugAvailability } from './slug-availability.js'
import { UserInvitations } from './UserInvitations.js'
import './organizations.css'

type Field = 'name' | 'slug'

const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  ORGANIZATION_ALREADY_EXISTS: 'slug',
  ORGANIZATION_SLUG_ALREADY_TAKEN: 'slug',
}

const CreateOrganization = () => {
  const navigate = useNavigate()
  const [create, { isLoading }] = useCreateOrganizationMutation()
  const [name, setName] = useState('')
  const [slug, setSlug] = useState('')
  // The slug follows the name until the person edits it themselves.
  const [slugEdited, setSlugEdited] = useState(false)
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const availability = useSlugAvailability(slug)

  const onName = (value: string) => {
    setName(value)
    if (!slugEdited) setSlug(slugify(value))
  }

  const onSubmit = async () => {
    if (isLoading) return
    const problems = fieldErrors<Field>({
      name: checkRequired(name, 'a name for the organization'),
      slug: checkSlug(slug),
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      const created = await create({ name: name.trim(), slug }).unwrap()
      navigate(`/account/organizations/${created.id}`, {
        state: { notice: `${created.name} is created, and you are its owner.` },
      })
    } catch (error) {
      setErrors(placeOrganizationError<Field>(error, FIELD_OF_CODE, ['name', 'slug']))
    }
  }

  return (
    <Card title="Create an organization" description="You become its owner and can invite people to it.">
      <Form label="Create an organization" onSubmit={onSubmit} errors={errors}>
        <TextField
          label="Organization name"
          name="name"
          maxLength={NAME_MAX}
          value={name}
          onChange={onName}
          error={errors.fields.name}
        />
        <TextField
          label="Slug"
          name="slug"
          autoCapitalize="none"
          maxLength={SLUG_MAX}
          value={slug}
          onChange={(value) => {
            setSlugEdited(true)
            setSlug(value.toLowerCase())
          }}
          hint={
            <>
              Its short name in addresses: lowercase letters, digits and dashes.
              <SlugAvailability state={availability} slug={slug} />
            </>
          }
          error={errors.fields.slug}
        />
        <FormActions>
          <SubmitButton pending={isLoading} pendingLabel="Creating…">
            Create organization
          </SubmitButton>
        </FormActions>
      </Form>
    </Card>
  )
}

const OrganizationRow = ({ organization, active }: { organization: Organization; active: boolean }) => {
  const [setActive, { isLoading, error }] = useSetActiveOrganizationMutation()
  return (
    <li className="org-row">
      <OrganizationMark organization={organization} />
      <div className="org-row-body">
        <p className="org-row-name">
          <Link to={`/account/organizations/${organization.id}`}>{organization.name}</Link>{' '}
          {active ? <Badge tone="success">Active</Badge> : null}
        </p>
        <p className="muted small">{organization.slug}</p>
        {error ? <Notice tone="error">{organizationMessageFor(error)}</Notice> : null}
      </div>
      <div className="org-row-action">
        {active ? null : (
          <Button
            size="small"
            pending={isLoading}
            pendingLabel="Switching…"
            onClick={() => void setActive({ organizationId: organization.id })}
          >
            Make active<span className="visually-hidden"> {organization.name}</span>
          </Button>
        )}
      </div>
    </li>
  )
}

const OrganizationList = () => {
  const signedIn = useSignedIn()
  const activeId = activeOrganizationIdOf(signedIn)
  const { data, isLoading, error, refetch, isFetching } = useListOrganizationsQuery()
  if (isLoading) return <Loading label="Loading your organizations…" />
  if (!data)
    return (
      <ErrorState
        message={organizationMessageFor(error)}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    )
  return (
    <Card
      title="Your organizations"
      description="The active one is what applications act on when they do not name one."
    >
      {data.length === 0 ? (
        <p className="empty-state">
          You do not belong to any organization yet. Create one below, or accept an invitation.
        </p>
      ) : (
        <ul className="rows" aria-label="Your organizations">
          {data.map((organization) => (
            <OrganizationRow
              key={organization.id}
              organization={organization}
              active={organization.id === activeId}
            />
          ))}
        </ul>
      )}
    </Card>
  )
}

export const OrganizationsPage = () => {
  const location = useLocation()
  return (
    <>
      <PageHeading
        title="Organizations"
        description="The teams and companies you work in, and your place in each."
      />
      <Notice tone="success">{noticeFrom(location.state)}</Notice>
      <UserInvitations />
      <OrganizationList />
      <CreateOrganization />
    </>
  )
}

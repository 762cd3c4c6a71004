import { useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { Button, SubmitButton } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { TextField } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { type FormErrors, fieldErrors, noErrors } from '../errors/form-errors.js'
import { checkRequired } from '../forms/checks.js'
import { IMAGE_URL_MAX } from '../forms/limits.js'
import { OrganizationApplications } from '../oauth-provider/OrganizationApplications.js'
import { DraftRestored, useDraft } from '../session/use-draft.js'
import { OrganizationSso } from '../sso/OrganizationSso.js'
import { OrganizationWebhooks } from '../webhooks/OrganizationWebhooks.js'
import { CustomRoles } from './CustomRoles.js'
import { DirectorySync } from './DirectorySync.js'
import { type OrganizationContext, useOrganization } from './organization-context.js'
import { placeOrganizationError } from './organization-messages.js'
import { useDeleteOrganizationMutation, useUpdateOrganizationMutation } from './organizations.api.js'
import { RequirePermission } from './RequirePermission.js'
import { checkSlug, NAME_MAX, SLUG_MAX } from './slug.js'
import { SlugAvailability, useSlugAvailability } from './slug-availability.js'
import { may } from './viewer.api.js'

type Field = 'name' | 'slug' | 'logo'

const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  ORGANIZATION_ALREADY_EXISTS: 'slug',
  ORGANIZATION_SLUG_ALREADY_TAKEN: 'slug',
}

const checkLogo = (logo: string): string | null => {
  if (logo.trim() === '') return null
  try {
    const url = new URL(logo.trim())
    return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'Use a web address (https://…).'
  } catch {
    return 'Use a full web address, like https://example.com/logo.png.'
  }
}

const DetailsForm = ({ context }: { context: OrganizationContext }) => {
  const { organization } = context
  const [update, { isLoading }] = useUpdateOrganizationMutation()
  const draft = useDraft<Record<Field, string>>(`organization-details:${organization.id}`, context.user.id)
  const [name, setName] = useState(draft.kept?.name ?? organization.name)
  const [slug, setSlug] = useState(draft.kept?.slug ?? organization.slug)
  const [logo, setLogo] = useState(draft.kept?.logo ?? organization.logo ?? '')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [saved, setSaved] = useState<string | null>(null)
  const availability = useSlugAvailability(slug, organization.slug)
  const allowed = may(context, 'organization:update')

  const onSubmit = async () => {
    if (isLoading) return
    setSaved(null)
    const problems = fieldErrors<Field>({
      name: checkRequired(name, 'a name for the organization'),
      slug: checkSlug(slug),
      logo: checkLogo(logo),
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    const data = {
      ...(name.trim() !== organization.name ? { name: name.trim() } : {}),
      ...(slug !== organization.slug ? { slug } : {}),
      ...(logo.trim() !== (organization.logo ?? '') ? { logo: logo.trim() === '' ? null : logo.trim() } : {}),
    }
    if (Object.keys(data).length === 0) {
      setSaved('Nothing to save: these are already its details.')
      return
    }
    try {
      await update({ organizationId: organization.id, data }).unwrap()
      draft.saved()
      setSaved('The organization is saved.')
    } catch (error) {
      draft.keepIfSessionEnded(error, { name, slug, logo })
      setErrors(placeOrganizationError<Field>(error, FIELD_OF_CODE, ['name', 'slug', 'logo']))
    }
  }

  return (
    <Card
      title="Details"
      description={
        allowed ? 'How the organization is named and shown.' : 'Only owners and admins can change these.'
      }
    >
      <Form label="Organization details" onSubmit={onSubmit} errors={errors}>
        <DraftRestored draft={draft} />
        <TextField
          label="Organization name"
          name="name"
          maxLength={NAME_MAX}
          value={name}
          onChange={setName}
          disabled={!allowed}
          error={errors.fields.name}
        />
        <TextField
          label="Slug"
          name="slug"
          autoCapitalize="none"
          maxLength={SLUG_MAX}
          value={slug}
          onChange={(value) => setSlug(value.toLowerCase())}
          disabled={!allowed}
          hint={
            <>
              Lowercase letters, digits and dashes. Applications that use the old slug stop finding it.
              <SlugAvailability state={availability} slug={slug} />
            </>
          }
          error={errors.fields.slug}
        />
        <TextField
          label="Logo address"
          name="logo"
          type="url"
          optional
          maxLength={IMAGE_URL_MAX}
          value={logo}
          onChange={setLogo}
          disabled={!allowed}
          hint="A square picture on the web, shown beside the organization’s name."
          error={errors.fields.logo}
        />
        {allowed ? (
          <FormActions>
            <SubmitButton pending={isLoading} pendingLabel="Saving…">
              Save
            </SubmitButton>
          </FormActions>
        ) : null}
        <Notice tone="success">{saved}</Notice>
      </Form>
    </Card>
  )
}

type ConfirmField = 'confirmation'

const DeleteOrganization = ({ context }: { context: OrganizationContext }) => {
  const { organization } = context
  const navigate = useNavigate()
  const [open, setOpen] = useState(false)
  const [typed, setTyped] = useState('')
  const [errors, setErrors] = useState<FormErrors<ConfirmField>>(noErrors())
  const [remove, { isLoading }] = useDeleteOrganizationMutation()
  const opener = useRef<HTMLButtonElement>(null)

  const onSubmit = async () => {
    if (isLoading) return
    if (typed.trim() !== organization.slug) {
      setErrors({ form: null, fields: { confirmation: `Type ${organization.slug} to confirm.` } })
      return
    }
    setErrors(noErrors())
    try {
      await remove({ organizationId: organization.id }).unwrap()
      navigate('/account/organizations', {
        replace: true,
        state: { notice: `${organization.name} is deleted.` },
      })
    } catch (error) {
      setErrors(placeOrganizationError<ConfirmField>(error, {}))
    }
  }

  return (
    <Card
      tone="danger"
      title="Danger zone"
      description="Deleting the organization removes its members, teams and invitations."
    >
      {open ? (
        <Form label="Delete organization" onSubmit={onSubmit} errors={errors}>
          <Notice tone="warning" live="none" title="This cannot be undone.">
            Every member loses access at once, and applications can no longer find it.
          </Notice>
          <TextField
            label={`Type ${organization.slug} to confirm`}
            name="confirmation"
            autoCapitalize="none"
            value={typed}
            onChange={setTyped}
            error={errors.fields.confirmation}
          />
          <FormActions>
            <SubmitButton pending={isLoading} pendingLabel="Deleting…" variant="danger">
              Delete organization
            </SubmitButton>
            <Button
              onClick={() => {
                setOpen(false)
                setTyped('')
                setErrors(noErrors())
                requestAnimationFrame(() => opener.current?.focus())
              }}
            >
              Cancel
            </Button>
          </FormActions>
        </Form>
      ) : (
        <div className="danger-row">
          <div>
            <p>
              <strong>Delete this organization</strong>
            </p>
            <p className="muted small">Only an owner can do this.</p>
          </div>
          <Button ref={opener} variant="danger-outline" onClick={() => setOpen(true)}>
            Delete organization…
          </Button>
        </div>
      )}
    </Card>
  )
}

export const OrganizationSettingsPage = () => {
  const context = useOrganization()
  return (
    <RequirePermission
      needs={['organization:update', 'organization:delete']}
      title="Settings"
      what="its settings"
    >
      <PageHeading
        title="Settings"
        documentTitle={`Settings · ${context.organization.name}`}
        description="The organization’s name, slug, logo and, where they are on, its own roles."
      />
      <DetailsForm key={context.organization.id} context={context} />
      {may(context, 'organization:update') && context.viewer?.features.customRoles ? (
        <CustomRoles context={context} />
      ) : null}
      {may(context, 'organization:update') ? <OrganizationSso context={context} /> : null}
      {may(context, 'organization:update') ? <DirectorySync context={context} /> : null}
      <OrganizationWebhooks context={context} />
      <OrganizationApplications context={context} />
      {may(context, 'organization:delete') ? <DeleteOrganization context={context} /> : null}
    </RequirePermission>
  )
}

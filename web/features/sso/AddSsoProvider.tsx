import { useState } from 'react'
import { Button, SubmitButton } from '../../ui/Button.js'
import { SelectField, TextField } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { isApiError } from '../errors/api-error.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { type RegisteredSsoProvider, useRegisterSsoProviderMutation } from './organization-sso.api.js'
import {
  checkProviderForm,
  emptyProviderForm,
  FIELD_OF_CODE,
  type ProviderField,
  type ProviderForm,
  REGISTER_MESSAGES,
  registerBodyOf,
} from './provider-form.js'
import { TextAreaField } from './TextAreaField.js'

/// "Add an identity provider": an owner or admin registers an OpenID Connect provider (issuer,
/// client, discovery) or a SAML one (IdP metadata XML, or entity ID + SSO URL + certificate) for
/// the organization's email domains, through `/sso/register`. Refusals are put in words, under the
/// field they concern.

const inWords = (error: unknown): FormErrors<ProviderField> => {
  const placed = placeError<ProviderField>(error, FIELD_OF_CODE, ['providerId', 'issuer'])
  if (!isApiError(error)) return placed
  const words = REGISTER_MESSAGES[error.code]
  if (!words) return placed
  const text = error.code === 'SAML_CONFIG_INVALID' ? `${words}: ${error.message}` : words
  const field = FIELD_OF_CODE[error.code]
  return field ? { form: null, fields: { [field]: text } } : { form: text, fields: {} }
}

type Props = {
  organizationId: string
  onAdded: (provider: RegisteredSsoProvider) => void
  onCancel: () => void
}

export const AddSsoProvider = ({ organizationId, onAdded, onCancel }: Props) => {
  const [form, setForm] = useState<ProviderForm>(emptyProviderForm)
  const [errors, setErrors] = useState<FormErrors<ProviderField>>(noErrors())
  const [register, { isLoading }] = useRegisterSsoProviderMutation()
  const set = (field: keyof ProviderForm) => (value: string) => setForm((was) => ({ ...was, [field]: value }))
  const text = (
    field: ProviderField,
    label: string,
    extra: Partial<Parameters<typeof TextField>[0]> = {},
  ) => (
    <TextField
      label={label}
      name={field}
      value={form[field]}
      onChange={set(field)}
      error={errors.fields[field]}
      autoCapitalize="none"
      {...extra}
    />
  )

  const onSubmit = async () => {
    if (isLoading) return
    const problems = fieldErrors<ProviderField>(checkProviderForm(form))
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      onAdded(await register(registerBodyOf(form, organizationId, window.location.origin)).unwrap())
    } catch (error) {
      setErrors(inWords(error))
    }
  }

  return (
    <Form label="Add an identity provider" onSubmit={onSubmit} errors={errors} className="sso-add-form">
      <SelectField
        label="Protocol"
        name="protocol"
        value={form.protocol}
        onChange={(protocol) => setForm((was) => ({ ...was, protocol }))}
        options={[
          { value: 'oidc', label: 'OpenID Connect' },
          { value: 'saml', label: 'SAML 2.0' },
        ]}
      />
      {text('providerId', 'Provider name', {
        hint: 'A short name for the links your identity provider calls, like acme-okta.',
        maxLength: 64,
      })}
      {text('domains', 'Email domains', {
        hint: 'The domains of your people’s addresses, separated by commas. Their subdomains count too.',
        maxLength: 2048,
      })}
      {form.protocol === 'oidc' ? (
        <>
          {text('issuer', 'Issuer', { type: 'url', hint: 'The identity provider’s issuer address.' })}
          {text('clientId', 'Client ID')}
          {text('clientSecret', 'Client secret', { type: 'password', autoComplete: 'off' })}
          {text('discoveryEndpoint', 'Discovery address', {
            type: 'url',
            optional: true,
            hint: 'Leave empty to use the issuer’s /.well-known/openid-configuration.',
          })}
        </>
      ) : (
        <>
          <SelectField
            label="How to describe the IdP"
            name="samlSource"
            value={form.samlSource}
            onChange={(samlSource) => setForm((was) => ({ ...was, samlSource }))}
            options={[
              { value: 'metadata', label: 'Paste its metadata XML' },
              { value: 'manual', label: 'Enter its entity ID, SSO URL and certificate' },
            ]}
          />
          {form.samlSource === 'metadata' ? (
            <TextAreaField
              label="IdP metadata XML"
              name="metadata"
              value={form.metadata}
              onChange={set('metadata')}
              error={errors.fields.metadata}
              hint="The whole document your identity provider offers for download."
            />
          ) : (
            <>
              {text('entityId', 'IdP entity ID')}
              {text('ssoUrl', 'SSO URL', { type: 'url', hint: 'Where people are sent to sign in.' })}
              <TextAreaField
                label="IdP signing certificate"
                name="certificate"
                value={form.certificate}
                onChange={set('certificate')}
                error={errors.fields.certificate}
                hint="PEM, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----."
              />
            </>
          )}
        </>
      )}
      <FormActions>
        <SubmitButton pending={isLoading} pendingLabel="Adding…">
          Add provider
        </SubmitButton>
        <Button onClick={onCancel}>Cancel</Button>
      </FormActions>
    </Form>
  )
}

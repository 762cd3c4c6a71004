import { useState } from 'react'
import { SubmitButton } from '../../ui/Button.js'
import { TextField } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { useDebounced } from '../../ui/use-debounced.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkRequired } from '../forms/checks.js'
import { IMAGE_URL_MAX, NAME_MAX } from '../forms/limits.js'
import type { User } from '../session/session.api.js'
import { useUpdateUserMutation } from './account.api.js'

type Field = 'name' | 'image'

/** How long the picture address must stay unchanged before the preview loads it. */
export const PREVIEW_DELAY_MS = 400

const BROKEN_IMAGE = 'We could not load an image from this address. Check that it links to a picture.'

const checkImageUrl = (value: string): string | null => {
  if (value.trim() === '') return null
  try {
    const url = new URL(value.trim())
    return url.protocol === 'https:' || url.protocol === 'http:'
      ? null
      : 'Use a web address starting with https://.'
  } catch {
    return 'Enter a full web address, like https://example.com/me.png.'
  }
}

/** Only what changed is sent; an emptied picture field removes the picture. */
const changes = (user: User, name: string, image: string): { name?: string; image?: string | null } => {
  const body: { name?: string; image?: string | null } = {}
  if (name.trim() !== user.name) body.name = name.trim()
  const nextImage = image.trim() === '' ? null : image.trim()
  if (nextImage !== (user.image ?? null)) body.image = nextImage
  return body
}

type ImageState = { url: string; status: 'loaded' | 'broken' }

/** The picture as it will look, loaded once typing has settled; a broken address says so. */
const Preview = ({ url, onResult }: { url: string; onResult: (state: ImageState) => void }) => (
  <img
    key={url}
    className="avatar profile-preview"
    src={url}
    alt="Avatar preview"
    width={64}
    height={64}
    onLoad={() => onResult({ url, status: 'loaded' })}
    onError={() => onResult({ url, status: 'broken' })}
  />
)

export const ProfileForm = ({ user }: { user: User }) => {
  const [updateUser, { isLoading }] = useUpdateUserMutation()
  const [name, setName] = useState(user.name)
  const [image, setImage] = useState(user.image ?? '')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [saved, setSaved] = useState<string | null>(null)
  const [imageState, setImageState] = useState<ImageState | null>(null)

  const settledImage = useDebounced(image.trim(), PREVIEW_DELAY_MS)
  const previewUrl = settledImage !== '' && checkImageUrl(settledImage) === null ? settledImage : null
  const broken = previewUrl !== null && imageState?.url === previewUrl && imageState.status === 'broken'
  const imageError = errors.fields.image ?? (broken && image.trim() === previewUrl ? BROKEN_IMAGE : undefined)

  const onSubmit = async () => {
    if (isLoading) return
    setSaved(null)
    const brokenNow =
      image.trim() !== '' && imageState?.url === image.trim() && imageState.status === 'broken'
    const problems = fieldErrors<Field>({
      name: checkRequired(name, 'your name'),
      image: checkImageUrl(image) ?? (brokenNow ? BROKEN_IMAGE : null),
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    const body = changes(user, name, image)
    if (Object.keys(body).length === 0) {
      setSaved('Nothing to save: these are already your details.')
      return
    }
    try {
      await updateUser(body).unwrap()
      setSaved('Your profile is saved.')
    } catch (error) {
      setErrors(placeError<Field>(error, {}, ['name', 'image']))
    }
  }

  return (
    <Form label="Profile" onSubmit={onSubmit} errors={errors}>
      <TextField
        label="Name"
        name="name"
        autoComplete="name"
        maxLength={NAME_MAX}
        value={name}
        onChange={setName}
        hint="Shown to the applications you sign in to."
        error={errors.fields.name}
      />
      <div className="profile-picture">
        <TextField
          label="Picture address"
          optional
          name="image"
          type="url"
          autoComplete="photo"
          maxLength={IMAGE_URL_MAX}
          value={image}
          onChange={setImage}
          hint="A link to an image of you. Leave it empty for no picture."
          error={imageError}
        />
        <div className="profile-preview-slot">
          {previewUrl && !broken ? (
            <Preview url={previewUrl} onResult={setImageState} />
          ) : (
            <span className="avatar profile-preview" aria-hidden="true">
              {(name.trim() || user.email).charAt(0).toUpperCase()}
            </span>
          )}
        </div>
      </div>
      <FormActions>
        <SubmitButton pending={isLoading} pendingLabel="Saving…">
          Save profile
        </SubmitButton>
        <Notice tone="success">{saved}</Notice>
      </FormActions>
    </Form>
  )
}

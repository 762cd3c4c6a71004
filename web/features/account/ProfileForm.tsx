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
import { DraftRestored, useDraft } from '../session/use-draft.js'
import { checkUsername, UsernameField } from '../username/UsernameField.js'
import { useUpdateUserMutation } from './account.api.js'
import { type ImageState, useImageCheck } from './use-image-check.js'

type Field = 'name' | 'username' | 'image'

type ProfileDraft = { name: string; username: string; image: string }

type Changes = { name?: string; image?: string | null; username?: string; displayUsername?: string }

const USERNAME_CODES: Partial<Record<string, Field>> = {
  USERNAME_TOO_SHORT: 'username',
  USERNAME_TOO_LONG: 'username',
  INVALID_USERNAME: 'username',
  USERNAME_IS_ALREADY_TAKEN: 'username',
}

/** The username as its owner wrote it, or '' when there is none. */
export const shownUsername = (user: User): string => user.displayUsername ?? user.username ?? ''

// better-auth's update-user accepts a new username but not its removal.
const checkKeptUsername = (user: User, value: string): string | null =>
  value.trim() === '' && shownUsername(user) !== ''
    ? 'A username can be changed but not removed. Enter one.'
    : checkUsername(value)

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
const changes = (user: User, name: string, username: string, image: string): Changes => {
  const body: Changes = {}
  if (name.trim() !== user.name) body.name = name.trim()
  const handle = username.trim()
  if (handle !== '' && handle !== shownUsername(user)) {
    body.username = handle
    body.displayUsername = handle
  }
  const nextImage = image.trim() === '' ? null : image.trim()
  if (nextImage !== (user.image ?? null)) body.image = nextImage
  return body
}

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
  // What was typed when the session ended under the person's feet, kept in this tab.
  const draft = useDraft<ProfileDraft>('profile', user.id)
  const [name, setName] = useState(draft.kept?.name ?? user.name)
  const [username, setUsername] = useState(draft.kept?.username ?? shownUsername(user))
  const [image, setImage] = useState(draft.kept?.image ?? user.image ?? '')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [saved, setSaved] = useState<string | null>(null)
  const check = useImageCheck()
  const imageState = check.state
  const [checking, setChecking] = useState(false)

  const settledImage = useDebounced(image.trim(), PREVIEW_DELAY_MS)
  const previewUrl =
    check.probing ?? (settledImage !== '' && checkImageUrl(settledImage) === null ? settledImage : null)
  const broken = previewUrl !== null && imageState?.url === previewUrl && imageState.status === 'broken'
  const imageError = errors.fields.image ?? (broken && image.trim() === previewUrl ? BROKEN_IMAGE : undefined)

  // A new picture is saved only once it loaded: a broken one would show in the header everywhere.
  const pictureLoads = async (url: string | null | undefined): Promise<boolean> => {
    if (!url) return true
    setChecking(true)
    const loads = await check.loads(url)
    setChecking(false)
    if (!loads) setErrors({ ...noErrors(), fields: { image: BROKEN_IMAGE } })
    return loads
  }

  const onSubmit = async () => {
    if (isLoading || checking) return
    setSaved(null)
    const brokenNow =
      image.trim() !== '' && imageState?.url === image.trim() && imageState.status === 'broken'
    const problems = fieldErrors<Field>({
      name: checkRequired(name, 'your name'),
      username: checkKeptUsername(user, username),
      image: checkImageUrl(image) ?? (brokenNow ? BROKEN_IMAGE : null),
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    const body = changes(user, name, username, image)
    if (Object.keys(body).length === 0) {
      setSaved('Nothing to save: these are already your details.')
      return
    }
    if (!(await pictureLoads(body.image))) return
    try {
      await updateUser(body).unwrap()
      draft.saved()
      setSaved('Your profile is saved.')
    } catch (error) {
      draft.keepIfSessionEnded(error, { name, username, image })
      setErrors(placeError<Field>(error, USERNAME_CODES, ['name', 'username', 'image']))
    }
  }

  return (
    <Form label="Profile" onSubmit={onSubmit} errors={errors}>
      <DraftRestored draft={draft} />
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
      <UsernameField
        optional={shownUsername(user) === ''}
        current={user.username ?? null}
        value={username}
        onChange={setUsername}
        error={errors.fields.username}
        hint="For signing in instead of your email."
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
            <Preview url={previewUrl} onResult={check.onResult} />
          ) : (
            <span className="avatar profile-preview" aria-hidden="true">
              {(name.trim() || user.email).charAt(0).toUpperCase()}
            </span>
          )}
        </div>
      </div>
      <FormActions>
        <SubmitButton
          pending={isLoading || checking}
          pendingLabel={checking ? 'Loading the picture…' : 'Saving…'}
        >
          Save profile
        </SubmitButton>
        <Notice tone="success">{saved}</Notice>
      </FormActions>
    </Form>
  )
}

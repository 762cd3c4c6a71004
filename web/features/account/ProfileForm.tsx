import { type FormEvent, useState } from 'react'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkRequired } from '../forms/checks.js'
import { FormAlert, Notice, SubmitButton } from '../forms/Feedback.js'
import { TextField } from '../forms/TextField.js'
import type { User } from '../session/session.api.js'
import { useUpdateUserMutation } from './account.api.js'

type Field = 'name' | 'image'

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

export const ProfileForm = ({ user }: { user: User }) => {
  const [updateUser, { isLoading }] = useUpdateUserMutation()
  const [name, setName] = useState(user.name)
  const [image, setImage] = useState(user.image ?? '')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [saved, setSaved] = useState<string | null>(null)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (isLoading) return
    setSaved(null)
    const problems = fieldErrors<Field>({
      name: checkRequired(name, 'your name'),
      image: checkImageUrl(image),
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
      setErrors(placeError<Field>(error, {}))
    }
  }

  const preview = checkImageUrl(image) === null && image.trim() !== '' ? image.trim() : null
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Profile">
      <FormAlert>{errors.form}</FormAlert>
      <TextField
        label="Name"
        name="name"
        autoComplete="name"
        value={name}
        onChange={setName}
        error={errors.fields.name}
      />
      <div className="with-avatar">
        <TextField
          label="Picture address (optional)"
          name="image"
          type="url"
          autoComplete="photo"
          value={image}
          onChange={setImage}
          hint="A link to an image of you. Leave it empty for no picture."
          error={errors.fields.image}
        />
        {preview ? <img className="avatar" src={preview} alt="" width={48} height={48} /> : null}
      </div>
      <SubmitButton pending={isLoading} pendingLabel="Saving…">
        Save profile
      </SubmitButton>
      <Notice>{saved}</Notice>
    </form>
  )
}

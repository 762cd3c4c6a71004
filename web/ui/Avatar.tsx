import { useState } from 'react'

type Person = { name: string; email: string; image: string | null }

const initialOf = (person: Person) => (person.name.trim() || person.email).charAt(0).toUpperCase()

/**
 * A person's picture, or their initial on a tinted disc; decorative (their name is always next to
 * it). A picture that does not load falls back to the initial, never a broken image.
 */
export const Avatar = ({ user, size = 28 }: { user: Person; size?: number }) => {
  const [failed, setFailed] = useState<string | null>(null)
  if (user.image && failed !== user.image)
    return (
      <img
        className="avatar"
        src={user.image}
        alt=""
        width={size}
        height={size}
        onError={() => setFailed(user.image)}
      />
    )
  return (
    <span className="avatar" style={{ width: size, height: size, fontSize: size * 0.45 }} aria-hidden="true">
      {initialOf(user)}
    </span>
  )
}

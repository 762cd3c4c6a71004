import { useEffect, useState } from 'react'
import { TextField } from '../../ui/Field.js'
import { Icon } from '../../ui/icons.js'
import { useDebounced } from '../../ui/use-debounced.js'
import { isUsernameAvailable } from '../auth/auth.requests.js'
import { messageForCode } from '../errors/messages.js'
import { AVAILABILITY_DELAY_MS, USERNAME_MAX, USERNAME_MIN, usernameProblem } from './username-rules.js'

/** A client-side check for a form's submit: null when empty (optional) or well formed. */
export const checkUsername = (value: string): string | null => {
  const username = value.trim()
  if (username === '') return null
  const problem = usernameProblem(username)
  return problem === null ? null : messageForCode(problem)
}

type Availability = 'idle' | 'checking' | 'available' | 'taken' | 'unknown'

/**
 * Whether the username is free, asked once typing has settled; never for one that breaks the
 * rules, nor for the person's own. Only advice: the server judges again on submit.
 */
const useAvailability = (value: string, current: string | null): Availability => {
  const typed = value.trim()
  const settled = useDebounced(typed, AVAILABILITY_DELAY_MS)
  const candidate =
    settled !== '' && usernameProblem(settled) === null && settled.toLowerCase() !== current?.toLowerCase()
      ? settled.toLowerCase()
      : null
  const [answer, setAnswer] = useState<{ name: string; available: boolean | null } | null>(null)
  useEffect(() => {
    if (candidate === null) return
    let current = true
    isUsernameAvailable(candidate).then(
      ({ available }) => {
        if (current) setAnswer({ name: candidate, available })
      },
      () => current && setAnswer({ name: candidate, available: null }),
    )
    return () => {
      current = false
    }
  }, [candidate])
  if (candidate === null || typed !== settled) return 'idle'
  if (answer?.name !== candidate) return 'checking'
  if (answer.available === null) return 'unknown'
  return answer.available ? 'available' : 'taken'
}

const AvailabilityText = ({ state, name }: { state: Availability; name: string }) => {
  switch (state) {
    case 'checking':
      return <span className="rules"> Checking whether it is free…</span>
    case 'available':
      return (
        <span className="rules rules-good availability">
          {' '}
          <Icon name="check" size={14} /> {name} is free.
        </span>
      )
    case 'taken':
      return <span className="rules rules-bad"> {name} is taken. Try another one.</span>
    default:
      return null
  }
}

type Props = {
  value: string
  onChange: (value: string) => void
  error?: string | undefined
  /** The person's own username, which needs no availability check. */
  current?: string | null
  optional?: boolean
  hint?: string
}

/** The username field: its rules before anything is typed, then whether the name is free. */
export const UsernameField = ({ value, onChange, error, current = null, optional, hint }: Props) => {
  const availability = useAvailability(value, current)
  return (
    <TextField
      label="Username"
      name="username"
      autoComplete="username"
      autoCapitalize="none"
      maxLength={USERNAME_MAX}
      optional={optional}
      value={value}
      onChange={onChange}
      error={error}
      hint={
        <>
          {hint ? `${hint} ` : null}
          {/* The field adds "Up to 30 characters." itself. */}
          Letters, digits, underscores (_) and dots (.), at least {USERNAME_MIN} characters.
          {/* Always there, so a screen reader hears the answer when it arrives. */}
          <span role="status">
            <AvailabilityText state={error ? 'idle' : availability} name={value.trim()} />
          </span>
        </>
      }
    />
  )
}

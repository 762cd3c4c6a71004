import { PASSWORD_MAX, PASSWORD_MIN } from './password-rules.js'

/** The password rule, shown before anyone submits, with a live hint while typing. */
export const PasswordRules = ({ password }: { password: string }) => {
  const length = password.length
  const state = length === 0 ? 'empty' : length < PASSWORD_MIN || length > PASSWORD_MAX ? 'bad' : 'good'
  return (
    <span className={`rules rules-${state}`}>
      {PASSWORD_MIN} to {PASSWORD_MAX} characters; common passwords (such as those in leaked lists) are
      refused.
      {state === 'empty' ? null : <span className="rules-count"> {length} so far.</span>}
    </span>
  )
}

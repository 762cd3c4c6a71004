import { useState } from 'react'
import { useNavigate } from 'react-router'
import { signedIn } from '../../app/session-events.js'
import { Button, SubmitButton } from '../../ui/Button.js'
import { TextField } from '../../ui/Field.js'
import { Form } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { isApiError } from '../errors/api-error.js'
import { type FormErrors, noErrors } from '../errors/form-errors.js'
import { messageFor } from '../errors/messages.js'
import { checkEmail } from '../forms/checks.js'
import { goOn, isWayOn } from '../oauth-provider/hand-off.js'
import { emailMeACode, signInWithCode } from './passwordless.requests.js'
import './passwordless.css'

type Props = {
  /** What the person typed in the sign-in form's email field. */
  email: string
  /** Where to go once signed in (a path of the portal). */
  returnTo: string
  /** On the OpenID provider's login page: the application's signed request, which goes on after. */
  oauthQuery?: string
}

const CODE_PROBLEMS: Readonly<Record<string, string>> = {
  INVALID_OTP: 'That code is not right. Check the latest mail and try again.',
  OTP_EXPIRED: 'That code has expired. Ask for a new one.',
  TOO_MANY_ATTEMPTS: 'Too many wrong codes: this one no longer works. Ask for a new one.',
}

const problemOf = (error: unknown) =>
  (isApiError(error) ? CODE_PROBLEMS[error.code] : undefined) ?? messageFor(error)

/** "Email me a code": a one-time code to the address typed above, and a form to enter it. */
export const EmailCodeSignIn = ({ email, returnTo, oauthQuery }: Props) => {
  const navigate = useNavigate()
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [code, setCode] = useState('')
  const [pending, setPending] = useState(false)
  const [errors, setErrors] = useState<FormErrors<'code'>>(noErrors())

  const send = async () => {
    const address = email.trim()
    const invalid = checkEmail(address)
    setErrors(invalid ? { form: invalid, fields: {} } : noErrors())
    if (invalid || pending) return
    setPending(true)
    try {
      await emailMeACode(address)
      setSentTo(address)
      setCode('')
    } catch (error) {
      setErrors({ form: messageFor(error), fields: {} })
    } finally {
      setPending(false)
    }
  }

  const enter = async () => {
    if (!sentTo || pending) return
    if (!/^\d{4,12}$/.test(code.trim())) {
      setErrors({ form: null, fields: { code: 'Enter the code from the mail: digits only.' } })
      return
    }
    setPending(true)
    try {
      const answer = await signInWithCode(sentTo, code.trim(), oauthQuery)
      if (isWayOn(answer)) return goOn(answer)
      // Tessera asks for the second factor after a mailed code too (better-auth would not). With an
      // application's signed request, the second step keeps it in its address, as the login page does.
      if ('twoFactorRedirect' in answer) {
        if (oauthQuery) return navigate(`/two-factor?${oauthQuery}`, { state: answer })
        const { twoFactorMethods } = answer
        navigate('/two-factor', { state: { from: returnTo, twoFactorMethods } })
        return
      }
      signedIn()
      navigate(returnTo, { replace: true })
    } catch (error) {
      setErrors({ form: problemOf(error), fields: {} })
      setPending(false)
    }
  }

  if (!sentTo)
    return (
      <div className="passwordless">
        <Button onClick={send} pending={pending} pendingLabel="Sending the code…">
          Email me a code
        </Button>
        {errors.form ? <Notice tone="error">{errors.form}</Notice> : null}
      </div>
    )
  return (
    <Form label="Sign in with a code" onSubmit={enter} errors={errors} className="form-stretch">
      <Notice tone="info">{`If ${sentTo} can receive mail, a code is on its way.`}</Notice>
      <TextField
        label="Code from the mail"
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        value={code}
        onChange={setCode}
        error={errors.fields.code}
      />
      <SubmitButton pending={pending} pendingLabel="Signing in…">
        Sign in with the code
      </SubmitButton>
      <Button onClick={send} size="small">
        Send a new code
      </Button>
    </Form>
  )
}

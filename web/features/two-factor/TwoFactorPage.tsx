import { useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { signedIn } from '../../app/session-events.js'
import { Button, SubmitButton } from '../../ui/Button.js'
import { Checkbox, TextField } from '../../ui/Field.js'
import { Form } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { returnPathFrom } from '../auth/navigation-state.js'
import { type FormErrors, noErrors, placeError } from '../errors/form-errors.js'
import { messageFor } from '../errors/messages.js'
import './two-factor.css'
import { type CodeMethod, sendCode, verifyCode } from './two-factor.requests.js'

const LABELS: Record<CodeMethod, { field: string; hint: string; switchTo: string; digits: boolean }> = {
  totp: {
    field: 'Code from your authenticator app',
    hint: 'The code the app shows for this account now.',
    switchTo: 'Use your authenticator app',
    digits: true,
  },
  otp: {
    field: 'Code from the email',
    hint: 'The code in the email we just sent you.',
    switchTo: 'Email me a code',
    digits: true,
  },
  'backup-code': {
    field: 'Backup code',
    hint: 'One of the backup codes you saved. Each works once.',
    switchTo: 'Use a backup code',
    digits: false,
  },
}

/** The methods the sign-in answer offered (router state), authenticator first. */
const methodsFrom = (state: unknown): CodeMethod[] => {
  const offered = typeof state === 'object' && state !== null ? Reflect.get(state, 'twoFactorMethods') : null
  const list = Array.isArray(offered) ? offered.filter((m) => m === 'totp' || m === 'otp') : ['totp', 'otp']
  return [...list, 'backup-code']
}

/**
 * The second step after a password: a code from the authenticator, a mailed code or a backup code,
 * and whether to trust this device. The server holds the half-finished sign-in in its cookie.
 */
export const TwoFactorPage = () => {
  const location = useLocation()
  const navigate = useNavigate()
  const methods = methodsFrom(location.state)
  const [method, setMethod] = useState<CodeMethod>(methods[0] ?? 'totp')
  const [code, setCode] = useState('')
  const [trust, setTrust] = useState(false)
  const [errors, setErrors] = useState<FormErrors<'code'>>(noErrors())
  const [busy, setBusy] = useState(false)
  const [news, setNews] = useState<string | null>(null)

  const submit = async () => {
    if (busy) return
    setBusy(true)
    try {
      // A sign-in begun on the OpenID provider's login page carries its signed request on.
      const oauthQuery = location.search.includes('sig=') ? location.search.slice(1) : undefined
      const answer = await verifyCode(method, code.trim(), trust, oauthQuery)
      signedIn()
      if (answer.redirect && answer.url) {
        window.location.assign(answer.url)
        return
      }
      navigate(returnPathFrom(location.state), { replace: true })
    } catch (error) {
      setErrors(placeError<'code'>(error, { INVALID_CODE: 'code', INVALID_BACKUP_CODE: 'code' }, ['code']))
      setBusy(false)
    }
  }
  const choose = async (next: CodeMethod) => {
    setMethod(next)
    setCode('')
    setErrors(noErrors())
    setNews(null)
    if (next !== 'otp') return
    try {
      await sendCode()
      setNews('We emailed you a code. It is valid for a few minutes.')
    } catch (error) {
      setErrors({ form: messageFor(error), fields: {} })
    }
  }

  return (
    <PublicCard
      title="Two-step verification"
      description="The first step is done. Now prove it is you with your second factor."
      after={
        <p>
          <Link to="/sign-in">Start over</Link>
        </p>
      }
    >
      <Notice tone="success">{news}</Notice>
      <Form label="Second step" onSubmit={submit} errors={errors} className="form-stretch">
        <TextField
          label={LABELS[method].field}
          name="code"
          autoComplete="one-time-code"
          autoCapitalize="none"
          {...(LABELS[method].digits ? { inputMode: 'numeric' as const } : {})}
          hint={LABELS[method].hint}
          value={code}
          onChange={setCode}
          error={errors.fields.code}
          maxLength={64}
        />
        <Checkbox
          label="Trust this device for 30 days"
          name="trustDevice"
          checked={trust}
          onChange={setTrust}
          hint="Skip this step here until then. Leave it off on a shared computer."
        />
        <SubmitButton pending={busy} pendingLabel="Checking…">
          Verify
        </SubmitButton>
      </Form>
      <div className="two-factor-actions">
        {methods
          .filter((other) => other !== method)
          .map((other) => (
            <Button key={other} size="small" onClick={() => void choose(other)}>
              {LABELS[other].switchTo}
            </Button>
          ))}
      </div>
    </PublicCard>
  )
}

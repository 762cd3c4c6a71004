import { toString as qrSvg } from 'qrcode'
import { useCallback, useEffect, useState } from 'react'
import { Button, SubmitButton } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { TextField } from '../../ui/Field.js'
import { Form } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { Loading } from '../../ui/Skeleton.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { messageFor } from '../errors/messages.js'
import { checkRequired } from '../forms/checks.js'
import { BackupCodes } from './BackupCodes.js'
import './two-factor.css'
import {
  disableTwoFactor,
  enableTwoFactor,
  generateBackupCodes,
  type TwoFactorStatus,
  twoFactorStatus,
  verifyCode,
} from './two-factor.requests.js'

type Step =
  | { kind: 'idle' }
  | { kind: 'password'; action: 'enable' | 'disable' | 'regenerate' }
  | { kind: 'setup'; totpURI: string; qr: string; backupCodes: string[] }
  | { kind: 'codes'; backupCodes: string[] }

// An SVG as an image: drawn without a canvas, and no markup of ours is injected into the page.
const qrImage = async (totpURI: string) =>
  `data:image/svg+xml;charset=utf-8,${encodeURIComponent(await qrSvg(totpURI, { type: 'svg', margin: 1 }))}`

const keyOf = (totpURI: string) => new URL(totpURI).searchParams.get('secret') ?? ''
/** How many digits the app will show: the URI says when the service was set up otherwise than 6. */
const digitsOf = (totpURI: string) => new URL(totpURI).searchParams.get('digits') ?? '6'

/**
 * The Security page's second factor: set up an authenticator (QR code or text key), confirm with a
 * first code, see and replace backup codes (shown once), turn the factor off.
 */
export const TwoFactorSection = () => {
  const [status, setStatus] = useState<TwoFactorStatus | null>(null)
  const [step, setStep] = useState<Step>({ kind: 'idle' })
  const [problem, setProblem] = useState<string | null>(null)
  const [news, setNews] = useState<string | null>(null)
  const load = useCallback(async () => setStatus(await twoFactorStatus()), [])
  useEffect(() => {
    load().catch((error) => setProblem(messageFor(error)))
  }, [load])

  if (status === null) return problem ? <Notice tone="error">{problem}</Notice> : <Loading />

  const withPassword = async (password: string) => {
    if (step.kind !== 'password') return
    setNews(null)
    if (step.action === 'enable') {
      const { totpURI, backupCodes } = await enableTwoFactor(password)
      setStep({ kind: 'setup', totpURI, qr: await qrImage(totpURI), backupCodes })
    } else if (step.action === 'regenerate') {
      setStep({ kind: 'codes', backupCodes: (await generateBackupCodes(password)).backupCodes })
      await load()
    } else {
      await disableTwoFactor(password)
      setStep({ kind: 'idle' })
      setNews('Two-factor authentication is off.')
      await load()
    }
  }
  const confirmed = async (code: string) => {
    await verifyCode('totp', code)
    setStep(step.kind === 'setup' ? { kind: 'codes', backupCodes: step.backupCodes } : { kind: 'idle' })
    setNews('Two-factor authentication is on. Signing in now asks for a code from your authenticator.')
    await load()
  }

  return (
    <Card
      title="Two-factor authentication"
      description="A code from an authenticator app, besides your password, whenever you sign in."
    >
      <Notice tone="success">{news}</Notice>
      <p>
        {status.enabled
          ? `On. ${status.backupCodesLeft} backup code${status.backupCodesLeft === 1 ? '' : 's'} left.`
          : 'Off.'}
      </p>
      {step.kind === 'password' ? (
        <PasswordStep
          action={step.action}
          onPassword={withPassword}
          onCancel={() => setStep({ kind: 'idle' })}
        />
      ) : null}
      {step.kind === 'setup' ? <SetupStep totpURI={step.totpURI} qr={step.qr} onCode={confirmed} /> : null}
      {step.kind === 'codes' ? <BackupCodes codes={step.backupCodes} /> : null}
      {step.kind === 'idle' || step.kind === 'codes' ? (
        <div className="two-factor-actions">
          {status.enabled ? (
            <>
              <Button onClick={() => setStep({ kind: 'password', action: 'regenerate' })}>
                New backup codes
              </Button>
              <Button
                variant="danger-outline"
                onClick={() => setStep({ kind: 'password', action: 'disable' })}
              >
                Turn off
              </Button>
            </>
          ) : (
            <Button variant="primary" onClick={() => setStep({ kind: 'password', action: 'enable' })}>
              Set up an authenticator app
            </Button>
          )}
        </div>
      ) : null}
    </Card>
  )
}

const ACTION_LABELS = {
  enable: 'Continue',
  disable: 'Turn off',
  regenerate: 'Make new backup codes',
} as const

const PasswordStep = ({
  action,
  onPassword,
  onCancel,
}: {
  action: keyof typeof ACTION_LABELS
  onPassword: (password: string) => Promise<void>
  onCancel: () => void
}) => {
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<FormErrors<'password'>>(noErrors())
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    const problems = fieldErrors<'password'>({ password: checkRequired(password, 'your password') })
    setErrors(problems ?? noErrors())
    if (problems || busy) return
    setBusy(true)
    try {
      await onPassword(password)
    } catch (error) {
      setErrors(placeError<'password'>(error, { INVALID_PASSWORD: 'password' }, ['password']))
      setBusy(false)
    }
  }
  return (
    <Form label="Confirm with your password" onSubmit={submit} errors={errors}>
      <TextField
        label="Your password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={errors.fields.password}
      />
      <div className="two-factor-actions">
        <SubmitButton pending={busy} pendingLabel="Checking…">
          {ACTION_LABELS[action]}
        </SubmitButton>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </Form>
  )
}

const SetupStep = ({
  totpURI,
  qr,
  onCode,
}: {
  totpURI: string
  qr: string
  onCode: (code: string) => Promise<void>
}) => {
  const [code, setCode] = useState('')
  const [errors, setErrors] = useState<FormErrors<'code'>>(noErrors())
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    setBusy(true)
    try {
      await onCode(code.trim())
    } catch (error) {
      setErrors(placeError<'code'>(error, { INVALID_CODE: 'code' }, ['code']))
      setBusy(false)
    }
  }
  return (
    <div className="stack">
      <p>Scan this QR code with your authenticator app, or type the key below into it.</p>
      <img className="two-factor-qr" src={qr} alt="QR code to add this account to an authenticator app" />
      <p>
        Key: <span className="two-factor-key">{keyOf(totpURI)}</span>
      </p>
      <Form label="Confirm your authenticator" onSubmit={submit} errors={errors}>
        <TextField
          label="Code from the app"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          hint={`The ${digitsOf(totpURI)}-digit code the app now shows for this account.`}
          value={code}
          onChange={setCode}
          error={errors.fields.code}
          maxLength={8}
        />
        <SubmitButton pending={busy} pendingLabel="Checking…">
          Turn on
        </SubmitButton>
      </Form>
    </div>
  )
}

import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser'
import { useCallback, useEffect, useRef, useState } from 'react'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Confirm } from '../../ui/Confirm.js'
import { Notice } from '../../ui/Notice.js'
import { Loading } from '../../ui/Skeleton.js'
import { Time } from '../../ui/Time.js'
import { passkeyProblem } from './passkey-messages.js'
import {
  deletePasskey,
  listPasskeys,
  type Passkey,
  registrationOptions,
  renamePasskey,
  verifyRegistration,
} from './passkeys.requests.js'
import './passkeys.css'

const labelOf = (passkey: Passkey) => passkey.name || 'Unnamed passkey'

/**
 * The Security page's passkeys: add one (the browser asks the device), rename or remove each. A
 * passkey signs in on its own, without a password or a second step, and cannot be phished.
 */
export const PasskeysSection = () => {
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [news, setNews] = useState<string | null>(null)
  const [adding, setAdding] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)

  const load = useCallback(async () => setPasskeys(await listPasskeys()), [])
  useEffect(() => {
    load().catch((error) => setProblem(passkeyProblem(error)))
  }, [load])

  const add = async () => {
    setAdding(true)
    setProblem(null)
    setNews(null)
    try {
      const optionsJSON = await registrationOptions()
      const response = await startRegistration({ optionsJSON })
      await verifyRegistration(response, undefined)
      await load()
      setNews('Your passkey was added. You can sign in with it from now on.')
    } catch (error) {
      setProblem(passkeyProblem(error))
    } finally {
      setAdding(false)
    }
  }
  const changed = async (done: string) => {
    await load()
    setNews(done)
    heading.current?.focus()
  }

  if (passkeys === null) return problem ? <Notice tone="error">{problem}</Notice> : <Loading />
  return (
    <Card
      title="Passkeys"
      description="Sign in with your fingerprint, face or device PIN instead of a password. Passkeys cannot be phished."
      headingRef={heading}
    >
      <Notice tone="error">{problem}</Notice>
      <Notice tone="success">{news}</Notice>
      {passkeys.length === 0 ? <p>You have no passkey yet.</p> : null}
      <ul className="rows" aria-label="Your passkeys">
        {passkeys.map((passkey) => (
          <PasskeyRow key={passkey.id} passkey={passkey} onChanged={changed} onProblem={setProblem} />
        ))}
      </ul>
      {browserSupportsWebAuthn() ? (
        <div className="passkey-add">
          <Button variant="primary" onClick={add} pending={adding} pendingLabel="Waiting for your device…">
            Add a passkey
          </Button>
        </div>
      ) : (
        <p className="small">This browser cannot create passkeys.</p>
      )}
    </Card>
  )
}

type RowProps = {
  passkey: Passkey
  onChanged: (done: string) => Promise<void>
  onProblem: (problem: string | null) => void
}

const PasskeyRow = ({ passkey, onChanged, onProblem }: RowProps) => {
  const [mode, setMode] = useState<'view' | 'rename' | 'remove'>('view')
  const [name, setName] = useState(passkey.name ?? '')
  const [pending, setPending] = useState(false)
  const act = async (action: () => Promise<unknown>, done: string) => {
    setPending(true)
    onProblem(null)
    try {
      await action()
      setMode('view')
      await onChanged(done)
    } catch (error) {
      onProblem(passkeyProblem(error))
    } finally {
      setPending(false)
    }
  }
  const rename = () =>
    act(() => renamePasskey(passkey.id, name.trim()), `The passkey is now called ${name.trim()}.`)
  const remove = () => act(() => deletePasskey(passkey.id), `${labelOf(passkey)} was removed.`)
  return (
    <li className="passkey">
      <div className="passkey-summary">
        <strong>{labelOf(passkey)}</strong>
        <span className="small">
          Added <Time value={passkey.createdAt} />
          {passkey.backedUp ? ' · synced to your other devices' : ''}
        </span>
      </div>
      {mode === 'rename' ? (
        <form
          className="passkey-rename"
          onSubmit={(event) => {
            event.preventDefault()
            if (name.trim() !== '') void rename()
          }}
        >
          <label>
            Name
            <input className="input" value={name} maxLength={256} onChange={(e) => setName(e.target.value)} />
          </label>
          <Button
            type="submit"
            size="small"
            pending={pending}
            pendingLabel="Saving…"
            disabled={name.trim() === ''}
          >
            Save
          </Button>
          <Button size="small" onClick={() => setMode('view')}>
            Cancel
          </Button>
        </form>
      ) : mode === 'remove' ? (
        <Confirm
          question={`Remove ${labelOf(passkey)}?`}
          consequence="You will no longer be able to sign in with it."
          confirmLabel="Remove"
          pendingLabel="Removing…"
          pending={pending}
          size="small"
          onConfirm={() => void remove()}
          onCancel={() => setMode('view')}
        />
      ) : (
        <div className="passkey-actions">
          {/* The name is beside the buttons already; a screen reader still hears which passkey. */}
          <Button size="small" aria-label={`Rename ${labelOf(passkey)}`} onClick={() => setMode('rename')}>
            Rename
          </Button>
          <Button
            size="small"
            variant="danger-outline"
            aria-label={`Remove ${labelOf(passkey)}`}
            onClick={() => setMode('remove')}
          >
            Remove
          </Button>
        </div>
      )}
    </li>
  )
}

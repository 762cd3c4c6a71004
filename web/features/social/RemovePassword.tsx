import { useEffect, useRef, useState } from 'react'
import { Button } from '../../ui/Button.js'

/**
 * The password as one way to sign in, on the Connected accounts card: removable (after a
 * confirmation) when a connected service remains to sign in with; otherwise it says why not. The
 * server refuses the last way in anyway (FAILED_TO_UNLINK_LAST_ACCOUNT), and the card shows that.
 */
export const RemovePassword = ({
  others,
  pending,
  onRemove,
}: {
  /** The connected services' names: what the person signs in with once the password is gone. */
  others: readonly string[]
  pending: boolean
  onRemove: () => void
}) => {
  const [asking, setAsking] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)
  const confirmButton = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (asking) confirmButton.current?.focus()
  }, [asking])
  const cancel = () => {
    setAsking(false)
    requestAnimationFrame(() => opener.current?.focus())
  }

  if (others.length === 0)
    return (
      <div className="social-account">
        <span>Password</span>
        <span className="muted small">Kept until you connect a service</span>
      </div>
    )
  if (!asking)
    return (
      <div className="social-account">
        <span>Password</span>
        <Button ref={opener} size="small" variant="danger-outline" onClick={() => setAsking(true)}>
          Remove password
        </Button>
      </div>
    )
  return (
    <div className="confirm social-account-confirm">
      <p>
        <strong>Remove your password?</strong> From now on you sign in with {others.join(' or ')} only.
        “Forgot password” gives you a new one whenever you want it back.
      </p>
      <div className="form-actions">
        <Button
          ref={confirmButton}
          size="small"
          variant="danger"
          pending={pending}
          pendingLabel="Removing…"
          onClick={onRemove}
        >
          Remove password
        </Button>
        <Button size="small" onClick={cancel}>
          Cancel
        </Button>
      </div>
    </div>
  )
}

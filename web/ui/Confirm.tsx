import { type ReactNode, useEffect, useRef } from 'react'
import { Button } from './Button.js'
import { FormActions } from './Form.js'
import { Notice } from './Notice.js'

type Props = {
  /** The question, in bold: "Remove the team Design?" */
  question: string
  /** What follows from saying yes, after the question. */
  consequence?: ReactNode
  /** Why the last attempt was refused, shown above the answers. */
  refusal?: ReactNode
  confirmLabel: string
  pendingLabel: string
  pending: boolean
  size?: 'small'
  onConfirm: () => void
  onCancel: () => void
}

/**
 * A destructive action's second step: it replaces the button that asked, and focus goes to Cancel
 * as it appears, so a second Enter or a stray tap never does the harm (the caller puts focus back
 * on the asking button after Cancel).
 */
export const Confirm = ({
  question,
  consequence,
  refusal,
  confirmLabel,
  pendingLabel,
  pending,
  size,
  onConfirm,
  onCancel,
}: Props) => {
  const safe = useRef<HTMLButtonElement>(null)
  useEffect(() => safe.current?.focus(), [])
  return (
    <div className="confirm">
      <p>
        <strong>{question}</strong>
        {consequence ? <> {consequence}</> : null}
      </p>
      <Notice tone="error">{refusal}</Notice>
      <FormActions>
        <Button
          size={size}
          variant="danger"
          pending={pending}
          pendingLabel={pendingLabel}
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
        <Button ref={safe} size={size} onClick={onCancel}>
          Cancel
        </Button>
      </FormActions>
    </div>
  )
}

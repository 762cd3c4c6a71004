import { Button } from './Button.js'
import { Notice } from './Notice.js'

type Props = {
  message: string
  onRetry: () => void
  retrying?: boolean
}

/** A failed load: what went wrong and a way to try again, in place of the missing content. */
export const ErrorState = ({ message, onRetry, retrying = false }: Props) => (
  <Notice tone="error">
    <p>{message}</p>
    <p style={{ marginTop: 'var(--space-3)' }}>
      <Button size="small" onClick={onRetry} pending={retrying} pendingLabel="Trying again…">
        Try again
      </Button>
    </p>
  </Notice>
)

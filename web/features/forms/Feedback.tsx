import type { ReactNode } from 'react'

/** A problem with the whole form, announced as soon as it appears. */
export const FormAlert = ({ children }: { children: ReactNode }) =>
  children ? (
    <div role="alert" className="alert alert-error">
      {children}
    </div>
  ) : null

/** Good news or a neutral state change, announced politely. */
export const Notice = ({ children }: { children: ReactNode }) =>
  children ? (
    <div role="status" className="alert alert-info">
      {children}
    </div>
  ) : null

type SubmitProps = {
  pending: boolean
  children: ReactNode
  pendingLabel: string
  variant?: 'primary' | 'danger'
  disabled?: boolean
}

/** Disabled while its request is in flight, so an action can never be sent twice. */
export const SubmitButton = ({
  pending,
  children,
  pendingLabel,
  variant = 'primary',
  disabled,
}: SubmitProps) => (
  <button
    type="submit"
    className={`button button-${variant}`}
    disabled={pending || disabled}
    aria-busy={pending}
  >
    {pending ? pendingLabel : children}
  </button>
)

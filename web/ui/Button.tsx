import type { ReactNode, Ref } from 'react'

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'danger-outline'

type Props = {
  children: ReactNode
  variant?: ButtonVariant
  size?: 'medium' | 'small'
  type?: 'button' | 'submit'
  /** While true the button is disabled and says `pendingLabel`, so an action is never sent twice. */
  pending?: boolean
  pendingLabel?: string
  disabled?: boolean
  onClick?: () => void
  /** Only to say more than the visible text, which it must begin with (the label is in the name). */
  'aria-label'?: string
  'aria-describedby'?: string
  'aria-expanded'?: boolean
  'aria-controls'?: string
  ref?: Ref<HTMLButtonElement>
}

export const Button = ({
  children,
  variant = 'secondary',
  size = 'medium',
  type = 'button',
  pending = false,
  pendingLabel,
  disabled,
  onClick,
  ref,
  ...aria
}: Props) => (
  <button
    ref={ref}
    type={type}
    className={`button button-${variant}${size === 'small' ? ' button-small' : ''}`}
    disabled={pending || disabled}
    aria-busy={pending || undefined}
    onClick={onClick}
    {...aria}
  >
    {pending ? <span className="spinner" aria-hidden="true" /> : null}
    {pending && pendingLabel ? pendingLabel : children}
  </button>
)

type SubmitProps = {
  pending: boolean
  pendingLabel: string
  children: ReactNode
  variant?: ButtonVariant
  disabled?: boolean
}

/** A form's main action: primary unless told otherwise, pending while its request is in flight. */
export const SubmitButton = ({ variant = 'primary', ...props }: SubmitProps) => (
  <Button type="submit" variant={variant} {...props} />
)

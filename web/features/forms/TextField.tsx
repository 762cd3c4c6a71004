import { type ReactNode, useId } from 'react'

type Props = {
  label: string
  name: string
  value: string
  onChange: (value: string) => void
  type?: 'text' | 'email' | 'password' | 'url'
  autoComplete?: string
  /** Shown under the label before anything goes wrong (rules, examples). */
  hint?: ReactNode
  error?: string | undefined
  disabled?: boolean
}

/** A labelled input whose hint and error are tied to it for assistive technology. */
export const TextField = ({
  label,
  name,
  value,
  onChange,
  type = 'text',
  autoComplete,
  hint,
  error,
  disabled,
}: Props) => {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ')
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <div id={hintId} className="hint">
          {hint}
        </div>
      ) : null}
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        autoComplete={autoComplete}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  )
}

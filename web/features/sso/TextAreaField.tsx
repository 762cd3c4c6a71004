import { useId } from 'react'

/// A labelled multi-line field (IdP metadata XML, a PEM certificate), its hint and error tied to it
/// as the shared TextField does for one line.

type Props = {
  label: string
  name: string
  value: string
  onChange: (value: string) => void
  hint?: string
  error?: string | undefined
  rows?: number
}

export const TextAreaField = ({ label, name, value, onChange, hint, error, rows = 6 }: Props) => {
  const id = useId()
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ')
  return (
    <div className="field">
      <div className="field-label-row">
        <label htmlFor={id}>{label}</label>
      </div>
      <textarea
        id={id}
        className="input sso-textarea"
        name={name}
        rows={rows}
        value={value}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint ? (
        <div id={`${id}-hint`} className="hint">
          {hint}
        </div>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          <span>{error}</span>
        </p>
      ) : null}
    </div>
  )
}

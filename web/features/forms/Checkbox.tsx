import { type ReactNode, useId } from 'react'

type Props = {
  label: ReactNode
  name: string
  checked: boolean
  onChange: (checked: boolean) => void
  hint?: ReactNode
  disabled?: boolean
}

export const Checkbox = ({ label, name, checked, onChange, hint, disabled }: Props) => {
  const id = useId()
  const hintId = `${id}-hint`
  return (
    <div className="checkbox">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-describedby={hint ? hintId : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={hintId} className="hint">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

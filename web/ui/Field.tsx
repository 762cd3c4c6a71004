import { type ReactNode, type Ref, useId, useState } from 'react'
import { Icon } from './icons.js'

type TextFieldProps = {
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
  /** The server's limit: enforced while typing, counted near the end, and for free text told in the hint. */
  maxLength?: number
  /** Marks the label "(optional)"; fields are required unless said otherwise. */
  optional?: boolean
  inputRef?: Ref<HTMLInputElement>
  /** 'none' for usernames and other identifiers a phone keyboard must not capitalise. */
  autoCapitalize?: 'none'
  /** 'numeric' for codes of digits: a phone shows its number pad. */
  inputMode?: 'numeric'
}

const FieldError = ({ id, children }: { id: string; children: ReactNode }) => (
  <p id={id} className="field-error">
    <Icon name="error" size={14} />
    <span>{children}</span>
  </p>
)

// The count appears once the limit is close, so short fields stay quiet.
const Count = ({ length, max }: { length: number; max: number }) =>
  length >= max * 0.8 ? (
    <span className={`field-count${length >= max ? ' field-count-over' : ''}`} aria-hidden="true">
      {length}/{max}
    </span>
  ) : null

/**
 * Shows or hides the password beside it. Its name is "Show" (not "Show password"), so that it never
 * answers to the field's own label; pressed, it reads "Hide".
 */
const ShowPassword = ({
  shown,
  controls,
  onToggle,
  disabled,
}: {
  shown: boolean
  controls: string
  onToggle: () => void
  disabled?: boolean | undefined
}) => (
  <button
    type="button"
    className="input-action"
    aria-controls={controls}
    onClick={onToggle}
    disabled={disabled}
  >
    {shown ? 'Hide' : 'Show'}
  </button>
)

/** A labelled input whose hint and error are tied to it (aria-describedby, aria-invalid). */
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
  maxLength,
  optional,
  inputRef,
  autoCapitalize,
  inputMode,
}: TextFieldProps) => {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  // Addresses and passwords have rules of their own; a name or a link is where a limit surprises.
  // A one-time code is as long as where it came from shows it: a limit there would only puzzle.
  const told = (type === 'text' || type === 'url') && autoComplete !== 'one-time-code'
  const limit = maxLength !== undefined && told ? `Up to ${maxLength} characters.` : null
  const hasHint = Boolean(hint) || limit !== null
  const describedBy = [hasHint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ')
  // A password can be shown to check it was typed right; it starts hidden, as someone may look on.
  const [shown, setShown] = useState(false)
  const input = (
    <input
      ref={inputRef}
      id={id}
      className="input"
      name={name}
      type={type === 'password' && shown ? 'text' : type}
      value={value}
      autoComplete={autoComplete}
      autoCapitalize={autoCapitalize}
      inputMode={inputMode}
      disabled={disabled}
      maxLength={maxLength}
      spellCheck={type === 'text' && autoCapitalize === undefined ? undefined : false}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy || undefined}
      onChange={(event) => onChange(event.target.value)}
    />
  )
  return (
    <div className="field">
      <div className="field-label-row">
        <label htmlFor={id}>
          {label}
          {optional ? <span className="field-optional"> (optional)</span> : null}
        </label>
        {maxLength !== undefined ? <Count length={value.length} max={maxLength} /> : null}
      </div>
      {type === 'password' ? (
        <div className="input-with-action">
          {input}
          <ShowPassword
            shown={shown}
            controls={id}
            onToggle={() => setShown((was) => !was)}
            disabled={disabled}
          />
        </div>
      ) : (
        input
      )}
      {hasHint ? (
        <div id={hintId} className="hint">
          {hint}
          {hint && limit ? ' ' : null}
          {limit}
        </div>
      ) : null}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  )
}

type CheckboxProps = {
  label: ReactNode
  name: string
  checked: boolean
  onChange: (checked: boolean) => void
  hint?: ReactNode
  error?: string | undefined
  disabled?: boolean
}

export const Checkbox = ({ label, name, checked, onChange, hint, error, disabled }: CheckboxProps) => {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ')
  return (
    <div className="checkbox">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={hintId} className="hint">
          {hint}
        </p>
      ) : null}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  )
}

/**
 * Tells password managers whose password a form changes: a hidden username field with the
 * account's address, read but never edited or sent.
 */
export const UsernameForPasswordManagers = ({ username }: { username: string }) => (
  <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
)

type SelectFieldProps<Value extends string> = {
  label: string
  name: string
  value: Value
  onChange: (value: Value) => void
  options: readonly { value: Value; label: string }[]
  hint?: ReactNode
  error?: string | undefined
  disabled?: boolean
  selectRef?: Ref<HTMLSelectElement>
  /** For a select in a row that already says what it is about: the label is read, not shown. */
  hideLabel?: boolean
}

/** A labelled native select (keyboard and screen readers know it), hint and error tied to it. */
export const SelectField = <Value extends string>({
  label,
  name,
  value,
  onChange,
  options,
  hint,
  error,
  disabled,
  selectRef,
  hideLabel,
}: SelectFieldProps<Value>) => {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ')
  return (
    <div className="field">
      <div className={hideLabel ? 'visually-hidden' : 'field-label-row'}>
        <label htmlFor={id}>{label}</label>
      </div>
      <select
        ref={selectRef}
        id={id}
        className="input"
        name={name}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onChange(event.target.value as Value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hint ? (
        <div id={hintId} className="hint">
          {hint}
        </div>
      ) : null}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  )
}

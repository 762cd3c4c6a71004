import { type FormEvent, type ReactNode, useEffect, useRef } from 'react'
import type { FormErrors } from '../features/errors/form-errors.js'
import { Notice } from './Notice.js'

type Props<Field extends string> = {
  /** The form's accessible name. */
  label: string
  onSubmit: () => void | Promise<void>
  errors: FormErrors<Field>
  children: ReactNode
  className?: string
}

const countText = (count: number) => (count === 1 ? 'One field needs' : `${count} fields need`)

/**
 * A form that handles its own errors the accessible way: a problem with the whole form is an
 * alert at the top; field problems are announced in a live region, and focus moves to the first
 * field in error, whose description then reads the problem out.
 */
export const Form = <Field extends string>({
  label,
  onSubmit,
  errors,
  children,
  className,
}: Props<Field>) => {
  const formRef = useRef<HTMLFormElement>(null)
  const fieldProblems = Object.values(errors.fields).filter(Boolean) as string[]

  // Runs for each new errors object, so submitting the same mistake twice focuses it again.
  useEffect(() => {
    if (Object.keys(errors.fields).length === 0) return
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')
    first?.focus()
  }, [errors])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void onSubmit()
  }

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      aria-label={label}
      className={['form', className].filter(Boolean).join(' ')}
    >
      <Notice tone="error">{errors.form}</Notice>
      {fieldProblems.length > 0 ? (
        <div role="alert" className="visually-hidden">
          {`${countText(fieldProblems.length)} attention: ${fieldProblems.join(' ')}`}
        </div>
      ) : null}
      {children}
    </form>
  )
}

/** The row of a form's buttons and the notice about what the last action did. */
export const FormActions = ({ children }: { children: ReactNode }) => (
  <div className="form-actions">{children}</div>
)

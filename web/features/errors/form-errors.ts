import { isApiError } from './api-error.js'
import { messageFor } from './messages.js'

/// Errors of one form: each one either sits next to the field it concerns or at the form's top.
export type FormErrors<Field extends string> = {
  form: string | null
  fields: Partial<Record<Field, string>>
}

export const noErrors = <Field extends string>(): FormErrors<Field> => ({ form: null, fields: {} })

/** Places a failed request's error: under the field its code concerns, else at the top. */
export const placeError = <Field extends string>(
  error: unknown,
  fieldOfCode: Partial<Record<string, Field>>,
): FormErrors<Field> => {
  const field = isApiError(error) && error.status !== 429 ? fieldOfCode[error.code] : undefined
  if (field === undefined) return { form: messageFor(error), fields: {} }
  const fields: Partial<Record<Field, string>> = {}
  fields[field] = messageFor(error)
  return { form: null, fields }
}

/** Collects client-side check results (a message, or null when fine); null when all pass. */
export const fieldErrors = <Field extends string>(
  problems: Partial<Record<Field, string | null>>,
): FormErrors<Field> | null => {
  const fields: Partial<Record<Field, string>> = {}
  for (const [field, problem] of Object.entries(problems) as [Field, string | null | undefined][]) {
    if (problem) fields[field] = problem
  }
  return Object.keys(fields).length > 0 ? { form: null, fields } : null
}

import { type ApiError, isApiError } from './api-error.js'
import { messageFor } from './messages.js'

/// Errors of one form: each one either sits next to the field it concerns or at the form's top.
export type FormErrors<Field extends string> = {
  form: string | null
  fields: Partial<Record<Field, string>>
}

export const noErrors = <Field extends string>(): FormErrors<Field> => ({ form: null, fields: {} })

const validationMessage = (error: ApiError): string => {
  const limit = error.rule?.limit
  if (error.rule?.kind === 'maxLength' && typeof limit === 'number') return `Use at most ${limit} characters.`
  if (error.rule?.kind === 'minLength' && typeof limit === 'number')
    return `Use at least ${limit} characters.`
  return 'This is not in the form the server expects (it may be too long). Check it and try again.'
}

/**
 * Places a failed request's error: under the field its code concerns, or, for a VALIDATION_ERROR
 * naming one of `requestFields` (the form's fields carry the request's names), under that field;
 * anything else at the top of the form.
 */
export const placeError = <Field extends string>(
  error: unknown,
  fieldOfCode: Partial<Record<string, Field>>,
  requestFields: readonly Field[] = [],
): FormErrors<Field> => {
  if (!isApiError(error) || error.status === 429) return { form: messageFor(error), fields: {} }
  const fields: Partial<Record<Field, string>> = {}
  const byCode = fieldOfCode[error.code]
  if (byCode !== undefined) {
    fields[byCode] = messageFor(error)
    return { form: null, fields }
  }
  if (error.code === 'VALIDATION_ERROR' && error.field) {
    const byName = requestFields.find((field) => field === error.field)
    if (byName !== undefined) {
      fields[byName] = validationMessage(error)
      return { form: null, fields }
    }
  }
  return { form: messageFor(error), fields: {} }
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

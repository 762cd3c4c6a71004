/// The error catalogue mechanism: every error the API can answer is declared once with its
/// code, HTTP status and the spec's message, and thrown by code.

export type ErrorDefinition = readonly [status: number, message: string]

export class DomainError<Code extends string = string> extends Error {
  override readonly name = 'DomainError'
  constructor(
    readonly code: Code,
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export type ErrorCatalogue<Codes extends string> = {
  readonly [C in Codes]: { code: C; status: number; message: string }
} & {
  /** Builds the error declared under `code`, to be thrown: `throw ERRORS.error('CODE')`. */
  error(code: Codes): DomainError<Codes>
}

export const defineErrors = <Codes extends string>(
  definitions: Record<Codes, ErrorDefinition>,
): ErrorCatalogue<Codes> => {
  const entries = Object.fromEntries(
    Object.entries<ErrorDefinition>(definitions).map(([code, [status, message]]) => [
      code,
      { code, status, message },
    ]),
  ) as { [C in Codes]: { code: C; status: number; message: string } }
  const error = (code: Codes) => {
    const { status, message } = entries[code]
    return new DomainError(code, status, message)
  }
  return Object.assign(entries, { error })
}

export const isDomainError = (value: unknown): value is DomainError => value instanceof DomainError

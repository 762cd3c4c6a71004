/// Refusals whose record must not delay them. The use case throws the refusal together with what to
/// append; the route sends the refusal first and appends afterwards, as a password-reset request
/// does, so the time of the answer does not tell whether anything was recorded (a failed sign-in is
/// recorded only for an account that exists).

import type { FastifyReply, FastifyRequest } from 'fastify'
import { DomainError } from '../../domain/shared/errors.js'

export class RefusalWithRecord extends DomainError {
  constructor(
    refusal: DomainError,
    readonly record: () => Promise<void>,
  ) {
    super(refusal.code, refusal.status, refusal.message)
  }
}

/**
 * For a route's `catch`: sends a `RefusalWithRecord` through the error handler, then records it
 * (a failure to record is logged, the answer has gone); anything else is rethrown untouched.
 */
export const refuseThenRecord = async (
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
): Promise<FastifyReply> => {
  if (!(error instanceof RefusalWithRecord)) throw error
  await reply.send(error)
  await error.record().catch((err: unknown) => request.log.error({ err }, 'recording a refusal failed'))
  return reply
}

import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { installErrorHandling } from '../../infra/http/error-handler.js'
import { RefusalWithRecord, refuseThenRecord } from './refuse-then-record.js'

const appThrowing = async (error: Error) => {
  const app = Fastify()
  installErrorHandling(app)
  app.post('/sign-in', async (request, reply) => {
    try {
      throw error
    } catch (caught) {
      return refuseThenRecord(request, reply, caught)
    }
  })
  await app.ready()
  return app
}

describe('refuseThenRecord', () => {
  it('answers the refusal before the record starts, then records it', async () => {
    const steps: string[] = []
    let finishRecord = () => {}
    const recorded = new Promise<void>((resolve) => {
      finishRecord = resolve
    })
    const app = await appThrowing(
      new RefusalWithRecord(AUTH_ERRORS.error('INVALID_EMAIL_OR_PASSWORD'), async () => {
        steps.push('record started')
        await recorded
        steps.push('recorded')
      }),
    )
    const response = await app.inject({ method: 'POST', url: '/sign-in' })
    steps.push('answered')
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({
      code: 'INVALID_EMAIL_OR_PASSWORD',
      message: 'Invalid email or password',
    })
    // The answer went out while the record was still running.
    expect(steps).not.toContain('recorded')
    finishRecord()
    await expect.poll(() => steps.at(-1)).toBe('recorded')
    await app.close()
  })

  it('leaves any other error to the error handler as it is', async () => {
    const app = await appThrowing(AUTH_ERRORS.error('EMAIL_NOT_VERIFIED'))
    const response = await app.inject({ method: 'POST', url: '/sign-in' })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' })
    await app.close()
  })
})

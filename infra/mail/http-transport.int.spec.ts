import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createHttpTransport } from './http-transport.js'
import { MailDeliveryError, type OutgoingMail } from './mail.js'
import { confirmAccountDeletion } from './templates.js'

/// A stand-in for the provider's API on loopback: records each request and answers with the
/// status the test chooses.

type ReceivedRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: unknown }

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
})

const startProvider = async (answer: (request: ReceivedRequest) => { status: number; body: unknown }) => {
  const requests: ReceivedRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
      }
      requests.push(request)
      const { status, body } = answer(request)
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('provider has no TCP address')
  return { url: `http://127.0.0.1:${address.port}/emails`, requests }
}

const mail: OutgoingMail = {
  to: 'ann@example.com',
  idempotencyKey: 'user.deletion-requested:7',
  ...confirmAccountDeletion({ name: 'Ann', url: 'https://accounts.example.com/delete?token=t0k' }),
}

const transportFor = (url: string) =>
  createHttpTransport({ url, apiKey: 're_test_key', from: 'Tessera <no-reply@example.com>' })

const deliveryError = async (promise: Promise<unknown>): Promise<MailDeliveryError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(error instanceof MailDeliveryError))
    throw new Error(`expected a MailDeliveryError, got ${String(error)}`)
  return error
}

describe('HTTP mail transport', () => {
  it('posts the mail as JSON with the bearer key and the idempotency key', async () => {
    const provider = await startProvider(() => ({ status: 200, body: { id: 'msg_1' } }))
    await transportFor(provider.url).send(mail)

    expect(provider.requests).toHaveLength(1)
    const [request] = provider.requests
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe('/emails')
    expect(request?.headers.authorization).toBe('Bearer re_test_key')
    expect(request?.headers['idempotency-key']).toBe('user.deletion-requested:7')
    expect(request?.headers['content-type']).toBe('application/json')
    expect(request?.body).toEqual({
      from: 'Tessera <no-reply@example.com>',
      to: ['ann@example.com'],
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    })
  })

  it.each([500, 503, 429])('treats %i as retryable', async (status) => {
    const provider = await startProvider(() => ({ status, body: { message: 'try later' } }))
    const error = await deliveryError(transportFor(provider.url).send(mail))
    expect(error.retryable).toBe(true)
    expect(error.message).toContain(String(status))
  })

  it.each([400, 401, 403, 422])('treats %i as final', async (status) => {
    const provider = await startProvider(() => ({ status, body: { message: 'bad request' } }))
    const error = await deliveryError(transportFor(provider.url).send(mail))
    expect(error.retryable).toBe(false)
  })

  it('treats a provider that does not answer the connection as retryable', async () => {
    const provider = await startProvider(() => ({ status: 200, body: {} }))
    const server = servers.pop()
    await new Promise((resolve) => server?.close(resolve))

    const error = await deliveryError(transportFor(provider.url).send(mail))
    expect(error.retryable).toBe(true)
  })

  it('sends the same idempotency key on a retry, so the provider can drop the duplicate', async () => {
    let calls = 0
    const provider = await startProvider(() => {
      calls += 1
      return calls === 1 ? { status: 502, body: {} } : { status: 200, body: { id: 'msg_2' } }
    })
    const transport = transportFor(provider.url)
    await deliveryError(transport.send(mail))
    await transport.send(mail)

    expect(provider.requests.map((r) => r.headers['idempotency-key'])).toEqual([
      'user.deletion-requested:7',
      'user.deletion-requested:7',
    ])
  })
})

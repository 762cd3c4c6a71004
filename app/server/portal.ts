/// Serves the built portal (web/dist): hashed assets with a year-long immutable cache, index.html
/// never cached, and the SPA fallback so client routes (/account, /security, ...) load the app.
/// Unknown API paths stay JSON 404s. Its pages carry the portal's Content-Security-Policy.

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { PORTAL_CSP } from '../../infra/http/frame-guard.js'

export const registerPortal = async (
  app: FastifyInstance,
  portalDir: string,
  basePath: string,
  notFound: () => { status: number; body: object },
): Promise<void> => {
  const hasIndex = existsSync(join(portalDir, 'index.html'))
  await app.register(fastifyStatic, {
    root: portalDir,
    wildcard: false,
    index: false,
    setHeaders: (reply, path) => {
      reply.header('content-security-policy', PORTAL_CSP)
      reply.header(
        'cache-control',
        path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      )
    },
  })
  // The portal's files are not part of the API: they stay out of the API reference.
  const notApi = { schema: { hide: true } }
  const page = (reply: FastifyReply) =>
    reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', PORTAL_CSP)
      .sendFile('index.html')
  app.get('/', notApi, (_request, reply) => page(reply))
  app.get('/assets/*', notApi, (request, reply) => {
    const path = (request.params as { '*': string })['*']
    return reply.sendFile(`assets/${path}`)
  })
  app.setNotFoundHandler((request, reply) => {
    const isPageRequest =
      request.method === 'GET' &&
      !request.url.startsWith(`${basePath}/`) &&
      !request.url.startsWith('/assets/')
    if (isPageRequest && hasIndex) return page(reply)
    const { status, body } = notFound()
    return reply.status(status).send(body)
  })
}

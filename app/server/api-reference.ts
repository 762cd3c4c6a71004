/// The API reference: an OpenAPI 3.1 document generated from the routes' TypeBox schemas
/// (@fastify/swagger), served as JSON at `<basePath>/open-api/generate-schema` (better-auth's path)
/// and as an interactive page at /api/reference (Scalar, served from the package: no CDN).
/// Registered before the routes, so that every route the app registers is in the document.

import fastifySwagger from '@fastify/swagger'
import scalarApiReference from '@scalar/fastify-api-reference'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../infra/config/config.js'

export const API_REFERENCE_PATH = '/api/reference'
export const openApiDocumentPath = (basePath: string) => `${basePath}/open-api/generate-schema`

const DESCRIPTION = `Tessera's HTTP API: better-auth's routes, request and response shapes and error
codes, served by an event-sourced account service. Every error answer is \`{ code, message }\`.

**Server API.** Operations that better-auth offers only as server-side calls are not public routes.`

export const registerApiReference = async (app: FastifyInstance, config: Config): Promise<void> => {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Tessera API', version: '0.1.0', description: DESCRIPTION },
      servers: [{ url: config.baseUrl }],
      components: {
        securitySchemes: {
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token' },
        },
      },
    },
  })
  await app.register(scalarApiReference, {
    routePrefix: API_REFERENCE_PATH,
    logLevel: 'warn',
    configuration: { url: openApiDocumentPath(config.basePath), title: 'Tessera API' },
  })
  app.get(openApiDocumentPath(config.basePath), { schema: { hide: true } }, async () => app.swagger())
}

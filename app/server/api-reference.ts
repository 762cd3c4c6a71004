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

**Server API.** Operations that better-auth offers only as server-side calls (setting a user's
password, verifying an API key, API-key properties only a server may set) are reached by the
application's backend with the header \`x-tessera-server-key: <key>\`, one of the keys the operator
configured in \`SERVER_KEYS\` (\`name=key,…\`, each key at least 32 characters). A request that also
carries a cookie, an \`Authorization\` header or an \`Origin\` header (a browser, a user session) is
refused with 403, a request without the header with 403 \`SERVER_ONLY_OPERATION\`, a wrong key with
401 \`INVALID_SERVER_KEY\`. Each server key has its own rate limit; the events it causes name the
actor \`server:<name>\`. Example, a backend verifying a user's API key:

\`\`\`sh
curl -X POST https://auth.example.com/api/auth/api-key/verify \\
  -H 'content-type: application/json' -H "x-tessera-server-key: $TESSERA_SERVER_KEY" \\
  -d '{"key": "<the key the client sent>", "permissions": {"files": ["read"]}}'
# → {"valid": true, "error": null, "key": {"id": "…", "userId": "…", "permissions": {…}, …}}
\`\`\``

export const registerApiReference = async (app: FastifyInstance, config: Config): Promise<void> => {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Tessera API', version: '0.1.0', description: DESCRIPTION },
      servers: [{ url: config.baseUrl }],
      components: {
        securitySchemes: {
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token' },
          // The server API (query-api/server-api/server-key.ts): application backends only.
          serverKey: { type: 'apiKey', in: 'header', name: 'x-tessera-server-key' },
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

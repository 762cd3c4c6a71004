/// The API reference: an OpenAPI 3.1 document generated from the routes' TypeBox schemas
/// (@fastify/swagger), served as JSON at `<basePath>/open-api/generate-schema` (better-auth's path)
/// and as an interactive page at /api/reference (Scalar, served from the package: no CDN).
/// Registered before the routes, so that every route the app registers is in the document.

import { createReadStream } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fastifySwagger from '@fastify/swagger'
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
          // The server API (http/guards/server-key.ts): application backends only.
          serverKey: { type: 'apiKey', in: 'header', name: 'x-tessera-server-key' },
        },
      },
    },
  })
  registerReferencePage(app, openApiDocumentPath(config.basePath))
  app.get(openApiDocumentPath(config.basePath), { schema: { hide: true } }, async () => app.swagger())
}

// Scalar's own Fastify plugin reads its 3.5 MB script into a string when it registers and holds
// it for the life of the process (some 7 MB of heap, for a page few people open). The page is
// small enough to write here; the script is streamed from the package's file when asked for.
const SCALAR_SCRIPT = fileURLToPath(
  new URL('js/standalone.js', import.meta.resolve('@scalar/fastify-api-reference')),
)

const registerReferencePage = (app: FastifyInstance, documentUrl: string): void => {
  const page = `<!doctype html>
<html lang="en">
  <head>
    <title>Tessera API</title>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <div id="app"></div>
    <script src="js/scalar.js"></script>
    <script>Scalar.createApiReference('#app', ${JSON.stringify({ url: documentUrl })})</script>
  </body>
</html>
`
  const hidden = { schema: { hide: true }, logLevel: 'warn' } as const
  // The script is loaded relative to the page, so the page is only ever served with its slash.
  app.get(API_REFERENCE_PATH, hidden, async (_request, reply) =>
    reply.redirect(`${API_REFERENCE_PATH}/`, 301),
  )
  app.get(`${API_REFERENCE_PATH}/`, hidden, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(page),
  )
  app.get(`${API_REFERENCE_PATH}/js/scalar.js`, hidden, async (_request, reply) =>
    reply.type('application/javascript; charset=utf-8').send(createReadStream(SCALAR_SCRIPT)),
  )
}

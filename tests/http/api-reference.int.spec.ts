/// The API reference documents every route the app serves: the OpenAPI document at better-auth's
/// path lists each one with a summary, a tag and its error answers, and /api/reference renders it.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'

/** Full `METHOD /path` lines from Fastify's route tree (printRoutes nests shared prefixes). */
const registeredRoutes = (tree: string): string[] => {
  const stack: string[] = []
  const routes: string[] = []
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (.+?) \(([A-Z, ]+)\)$/.exec(line)
    if (!match) continue
    const depth = (match[1] ?? '').length / 4
    stack.length = depth
    stack.push(match[2] ?? '')
    const path = stack.join('')
    for (const method of (match[3] ?? '').split(', ')) if (method !== 'HEAD') routes.push(`${method} ${path}`)
  }
  return routes
}

type Operation = { summary?: string; tags?: string[]; responses?: Record<string, { description?: string }> }
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> }

describe('API reference', () => {
  let tessera: TestTessera
  let document: Document

  // With a portal, as `npm start` serves it: its routes must stay out of the document.
  const portalDir = mkdtempSync(join(tmpdir(), 'tessera-portal-'))

  beforeAll(async () => {
    writeFileSync(join(portalDir, 'index.html'), '<!doctype html><title>Portal</title>')
    tessera = await startTessera({ portalDir })
    const response = await tessera.api.request('GET', '/open-api/generate-schema')
    expect(response.status).toBe(200)
    document = response.json as Document
  })
  afterAll(async () => {
    await tessera.cleanup()
    rmSync(portalDir, { recursive: true, force: true })
  })

  it('is OpenAPI 3.1', () => {
    expect(document.openapi).toBe('3.1.0')
  })

  it('leaves out what is not API: the portal, its assets, the reference page itself', () => {
    const paths = Object.keys(document.paths)
    expect(paths.filter((path) => !path.startsWith('/api/auth/'))).toEqual([])
  })

  it('lists every route under the auth base path, each with a summary, a tag and its answers', () => {
    const app = tessera.app
    if (!app) throw new Error('no app')
    const routes = registeredRoutes(app.printRoutes({ commonPrefix: false }))
      .filter((route) => route.includes(' /api/auth/'))
      .filter((route) => !route.endsWith('/open-api/generate-schema'))
    expect(routes.length).toBeGreaterThan(20)
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    )
    expect(documented.sort()).toEqual(routes.sort())
    for (const [path, operations] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method} ${path}`
        expect(operation.summary, where).toMatch(/\w/)
        expect(operation.tags?.length, where).toBe(1)
        expect(Object.keys(operation.responses ?? {}).length, where).toBeGreaterThan(0)
      }
  })

  it('names the error codes a route answers with their messages', () => {
    const signIn = document.paths['/api/auth/sign-in/email']?.post
    expect(signIn?.responses?.['401']?.description).toContain(
      '`INVALID_EMAIL_OR_PASSWORD`: Invalid email or password',
    )
    expect(signIn?.responses?.['403']?.description).toContain('EMAIL_NOT_VERIFIED')
    expect(signIn?.responses?.['429']?.description).toContain('TOO_MANY_REQUESTS')
  })

  it('never shows a token hash or password hash in a response schema', () => {
    const text = JSON.stringify(document)
    expect(text).not.toMatch(/token_hash|tokenHash|passwordHash|password_hash/)
  })

  it('serves the interactive reference page and its script from this server', async () => {
    const page = await tessera.app?.inject({ method: 'GET', url: '/api/reference/' })
    expect(page?.statusCode).toBe(200)
    expect(page?.body).toContain('/api/auth/open-api/generate-schema')
    const script = await tessera.app?.inject({ method: 'GET', url: '/api/reference/js/scalar.js' })
    expect(script?.statusCode).toBe(200)
    expect(Number(script?.headers['content-length'] ?? script?.body.length)).toBeGreaterThan(100_000)
  })
})

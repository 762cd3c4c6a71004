/// Loading pg leaves Node's fetch implementation unloaded (load-pg.ts): in a fresh process, as
/// Tessera's server loads it, and with pg's int8 parser set and `Response` still available.

import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')

const inFreshProcess = (script: string): Record<string, unknown> =>
  JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }),
  )

describe('loadPg', () => {
  it("loads pg without loading Node's fetch implementation, and leaves Response usable", () => {
    const loader = pathToFileURL(join(root, 'dist/infra/db/load-pg.js')).href
    const seen = inFreshProcess(`
      const { loadPg } = await import(${JSON.stringify(loader)})
      const pg = loadPg()
      const undiciLoaded = process.moduleLoadList.some((name) => name.includes('undici'))
      const int8 = pg.types.getTypeParser(pg.types.builtins.INT8)('9007199254740993')
      const response = new Response('ok').status
      console.log(JSON.stringify({ undiciLoaded, int8, response, pool: typeof pg.Pool }))
    `)
    expect(seen).toEqual({ undiciLoaded: false, int8: '9007199254740993', response: 200, pool: 'function' })
  })

  it('needs it: pg loaded alone on Node 20 does load fetch', () => {
    // The control: shows that the check above can fail, and stops claiming a saving once pg or
    // Node no longer does this (Node 21 and later have a navigator, which pg asks first).
    const seen = inFreshProcess(`
      const { createRequire } = await import('node:module')
      createRequire(${JSON.stringify(`${pathToFileURL(root).href}/`)})('pg')
      console.log(JSON.stringify({ undiciLoaded: process.moduleLoadList.some((name) => name.includes('undici')) }))
    `)
    expect(seen).toEqual({
      undiciLoaded: typeof (globalThis as { navigator?: unknown }).navigator !== 'object',
    })
  })
})

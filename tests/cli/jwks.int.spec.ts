/// `tessera jwks rotate` from the real binary, against the database of a running Tessera on
/// PostgreSQL: the server hears of the rotation through the log and signs with the new key, while
/// the retired one stays published.

import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { decodeProtectedHeader } from 'jose'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { devicesFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const root = join(import.meta.dirname, '../..')
const SECRET = 'jwks-cli-secret-0123456789abcdef-0123'

const tessera = async (url: string, ...args: string[]) => {
  const { BASE_URL: _vite, ...inherited } = process.env
  const env = { ...inherited, DATABASE_URL: url, AUTH_SECRET: SECRET, NODE_ENV: 'test' }
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'bin/tessera.js'), ...args], {
      env,
      cwd: root,
    })
    return { code: 0, output: stdout }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, output: failed.stdout + failed.stderr }
  }
}

describe('tessera jwks rotate', () => {
  let main: TestTessera
  beforeEach(async () => {
    main = await startTessera({ kind: 'postgres', env: { AUTH_SECRET: SECRET } })
  })
  afterEach(() => main.cleanup())

  it('retires the signing key; the running server signs with the new one and still publishes both', async () => {
    const { url } = main.database as unknown as { url: string }
    const device = await devicesFor(() => main, 'correct horse battery').signedUp()
    const kidOfToken = async () =>
      decodeProtectedHeader(((await device.get('/token')).json as { token: string }).token).kid
    const first = await kidOfToken()

    const rotated = await tessera(url, 'jwks', 'rotate')
    expect(rotated.code).toBe(0)
    const kid = /New JWT signing key (\S+) \(EdDSA\)\./.exec(rotated.output)?.[1]
    expect(rotated.output).toContain(`Retired ${first}`)
    await vi.waitFor(async () => expect(await kidOfToken()).toBe(kid), { timeout: 10_000, interval: 100 })
    const jwks = (await device.get('/jwks')).json as { keys: { kid: string }[] }
    expect(jwks.keys.map((key) => key.kid)).toEqual([kid, first])

    expect(await tessera(url, 'jwks', 'spin')).toMatchObject({
      code: 1,
      output: expect.stringContaining('Usage: tessera jwks rotate'),
    })
  }, 300_000)
})

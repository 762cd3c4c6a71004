/// The real `tessera` command in a child process: configuration errors stop it with a message that
/// names the variable, and embedded data survives a restart (sign up, restart, sign in).

import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../support/free-port.js'

const root = join(import.meta.dirname, '../..')
const bin = join(root, 'bin/tessera.js')

// Vitest puts Vite's BASE_URL ('/') into process.env; the child must not inherit it.
const childEnv = (env: Record<string, string>) => {
  const { BASE_URL: _viteBaseUrl, ...inherited } = process.env
  return { ...inherited, ...env }
}

const run = (env: Record<string, string>) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, 'serve'], { env: childEnv(env), cwd: root })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('exit', (code) => resolve({ code, output }))
  })

const serve = async (env: Record<string, string>, port: number): Promise<ChildProcess> => {
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: childEnv({ ...env, PORT: String(port) }),
    cwd: root,
  })
  let output = ''
  child.stderr.on('data', (chunk) => (output += chunk))
  child.stdout.on('data', (chunk) => (output += chunk))
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`tessera exited with ${child.exitCode}:\n${output}`)
    const ok = await fetch(`http://127.0.0.1:${port}/api/auth/ok`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return child
    await new Promise((r) => setTimeout(r, 200))
  }
  child.kill('SIGKILL')
  throw new Error(`tessera did not start:\n${output}`)
}

const stop = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code))
    child.kill('SIGTERM')
  })

// Node's fetch sends `Sec-Fetch-Mode: cors`, a browser's sign, so sign-in and sign-up want a
// trusted Origin from it (login CSRF guard): the default BASE_URL's.
const post = (port: number, path: string, body: object) =>
  fetch(`http://127.0.0.1:${port}/api/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: `http://localhost:${port}` },
    body: JSON.stringify(body),
  })

describe('tessera serve', () => {
  let dataDir: string
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tessera-cli-'))
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('refuses an invalid variable, naming it, with a non-zero exit', async () => {
    const { code, output } = await run({ PORT: 'not-a-port', DATA_DIR: dataDir })
    expect(code).not.toBe(0)
    expect(output).toContain('PORT')
  })

  it('refuses to run in production with the development secret', async () => {
    const { code, output } = await run({
      NODE_ENV: 'production',
      AUTH_SECRET: '',
      BASE_URL: 'https://a.example',
      DATA_DIR: dataDir,
    })
    expect(code).not.toBe(0)
    expect(output).toContain('AUTH_SECRET')
  })

  it('keeps embedded data across a restart', { timeout: 300_000 }, async () => {
    const env = {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      AUTH_SECRET: 'cli-test-secret-0123456789abcdefghij',
    }
    const port = await freePort()
    const first = await serve(env, port)
    // The portal it serves is React's production build, though this test runs under NODE_ENV=test.
    const page = await (await fetch(`http://127.0.0.1:${port}/`)).text()
    const scripts = [...page.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1])
    expect(scripts.length).toBeGreaterThan(0)
    for (const script of scripts) {
      const code = await (await fetch(`http://127.0.0.1:${port}${script}`)).text()
      expect(code).not.toMatch(/react-dom\.development|Download the React DevTools/)
    }
    const signUp = await post(port, '/sign-up/email', {
      name: 'Kept',
      email: 'kept@example.com',
      password: 'persisted password',
    })
    expect(signUp.status).toBe(200)
    expect(await stop(first)).toBe(0)

    const second = await serve(env, port)
    try {
      const signIn = await post(port, '/sign-in/email', {
        email: 'kept@example.com',
        password: 'persisted password',
      })
      expect(signIn.status).toBe(200)
      const duplicate = await post(port, '/sign-up/email', {
        name: 'Again',
        email: 'kept@example.com',
        password: 'persisted password',
      })
      expect(duplicate.status).toBe(422)
    } finally {
      await stop(second)
    }
  })
})

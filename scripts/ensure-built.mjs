// Builds the server (tsc) and the portal (vite) when their sources are newer than the last build,
// so `npm start` and the `tessera` bin work straight after `npm ci`.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const run = (args, env = process.env) => {
  try {
    execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit', env })
  } catch {
    console.error(`Build failed: node ${args.join(' ')}`)
    process.exit(1)
  }
}

const newest = (dirs, skip) => {
  let latest = 0
  const walk = (dir) => {
    if (!existsSync(dir)) return
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (!skip.includes(entry.name)) walk(path)
      } else latest = Math.max(latest, statSync(path).mtimeMs)
    }
  }
  for (const dir of dirs) walk(join(root, dir))
  return latest
}

const stampTime = (stamp) => (existsSync(stamp) ? statSync(stamp).mtimeMs : -1)
const skip = ['node_modules', 'dist']

const serverStamp = join(root, 'dist', '.built')
const serverSources = ['app', 'domain', 'command-api', 'query-api', 'http', 'projections', 'infra', 'bench']
// The browser tests run the server from its sources: they need only the portal (`--portal-only`).
const portalOnly = process.argv.includes('--portal-only')
const serverStale = () =>
  newest(serverSources, skip) > stampTime(serverStamp) ||
  stampTime(join(root, 'tsconfig.json')) > stampTime(serverStamp)
if (!portalOnly && serverStale()) {
  console.log('Building the server…')
  run([join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'])
  writeFileSync(serverStamp, new Date().toISOString())
}

const webStamp = join(root, 'web', 'dist', '.built')
if (existsSync(join(root, 'web', 'index.html')) && newest(['web'], [...skip, 'test']) > stampTime(webStamp)) {
  console.log('Building the portal…')
  run(
    [
      join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'web/vite.config.ts',
      '--logLevel',
      'warn',
      // Whatever NODE_ENV the caller runs under (a test runner sets `test`), the portal that is served
      // is React's production build: Vite builds development code otherwise.
    ],
    { ...process.env, NODE_ENV: 'production' },
  )
  writeFileSync(webStamp, new Date().toISOString())
}

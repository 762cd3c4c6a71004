/// A real Redis for tests: Debian's `redis-server` on a free loopback port, without persistence.
/// `TEST_REDIS_SERVER` names another binary. `npm test` installs it first (scripts/test-deps.sh).
/// With `TEST_CONTAINERS=1`, a Redis container instead (containers.ts).
///
///   const redis = await startRedisServer()   // REDIS_URL=redis.url
///   await redis.stop()

import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { startRedisContainer, testContainersAsked } from './containers.js'
import { freePort } from './free-port.js'

const REDIS_SERVER = process.env.TEST_REDIS_SERVER || '/usr/bin/redis-server'
const READY = /Ready to accept connections/
const START_TIMEOUT_MS = 10_000

export type RedisServer = { port: number; url: string; stop(): Promise<void> }

export const redisServerAvailable = (): boolean => existsSync(REDIS_SERVER)

/** Missing, the suite fails (it never skips): with the command that fixes it, not `spawn ENOENT`. */
export const startRedisServer = async (): Promise<RedisServer> => {
  if (testContainersAsked()) return startRedisContainer()
  if (!redisServerAvailable())
    throw new Error(
      `redis-server not found at ${REDIS_SERVER}. Run \`bash scripts/test-deps.sh\` ` +
        '(it installs it as root), or: sudo apt-get install -y redis-server',
    )
  const port = await freePort()
  const child = spawn(
    REDIS_SERVER,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--loglevel',
      'notice',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  await waitUntilReady(child)
  return { port, url: `redis://127.0.0.1:${port}`, stop: () => stop(child) }
}

const waitUntilReady = (child: ChildProcess): Promise<void> =>
  new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(
      () => fail(new Error(`redis-server did not start:\n${output}`)),
      START_TIMEOUT_MS,
    )
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(error)
    }
    child.once('error', fail)
    child.once('exit', (code) => fail(new Error(`redis-server exited with ${code}:\n${output}`)))
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (!READY.test(output)) return
      clearTimeout(timer)
      child.removeAllListeners('exit')
      child.stdout?.removeAllListeners('data')
      child.stdout?.resume()
      resolve()
    })
  })

const stop = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })

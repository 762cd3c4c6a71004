/// The first start of an embedded database runs PostgreSQL's initdb inside PGlite, which peaks at
/// about twice the memory the server needs while serving (WebAssembly memory never shrinks, so the
/// peak would stay with the process for its whole life). It runs in a short-lived child process
/// instead, whose memory goes back to the system when it exits; the server then opens the
/// initialised directory.

import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

// CommonJS on purpose: `node -e` needs no loader or file on disk, and the module path is given.
const INITDB = `
const [pglitePath, dataDir] = process.argv.slice(1)
const { PGlite } = require(pglitePath)
PGlite.create({ dataDir }).then((db) => db.close()).catch((error) => {
  console.error(error)
  process.exit(1)
})`

/** Whether `dataDir` already holds an initialised cluster (what initdb writes last is enough). */
export const isInitialised = (dataDir: string): boolean => existsSync(join(dataDir, 'PG_VERSION'))

/** Initialises `dataDir` in a child process unless it already holds a cluster. */
export const initialisePgliteDirectory = async (dataDir: string): Promise<void> => {
  if (isInitialised(dataDir)) return
  const pglitePath = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  await run(process.execPath, ['-e', INITDB, pglitePath, dataDir], { maxBuffer: 1024 * 1024 })
}

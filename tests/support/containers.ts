/// `TEST_CONTAINERS=1`: PostgreSQL and Redis for the tests in throwaway containers (testcontainers)
/// instead of the embedded PostgreSQL and Debian's redis-server, for a CI that has Docker and would
/// rather not install those. Without a reachable Docker engine it fails with that reason, never
/// falling back silently. Not run on the project's own machines (they have no Docker).

import { randomBytes } from 'node:crypto'
import { GenericContainer, type StartedTestContainer, Wait } from 'testcontainers'

export const testContainersAsked = (): boolean => process.env.TEST_CONTAINERS === '1'

const POSTGRES_IMAGE = process.env.TEST_POSTGRES_IMAGE ?? 'docker.io/library/postgres:17'
const REDIS_IMAGE = process.env.TEST_REDIS_IMAGE ?? 'docker.io/library/redis:7'

const started = async (what: string, start: () => Promise<StartedTestContainer>) => {
  try {
    return await start()
  } catch (error) {
    throw new Error(
      `TEST_CONTAINERS=1: could not start ${what} in a container (${error instanceof Error ? error.message.split('\n')[0] : String(error)}). ` +
        'Unset TEST_CONTAINERS to use the embedded servers, or make a Docker engine reachable.',
    )
  }
}

/** A superuser URL of the `postgres` database, as the global setup wants it. */
export const startPostgresContainer = async (): Promise<{ adminUrl: string; stop(): Promise<void> }> => {
  const password = randomBytes(12).toString('hex')
  const container = await started('PostgreSQL', () =>
    new GenericContainer(POSTGRES_IMAGE)
      .withEnvironment({ POSTGRES_PASSWORD: password })
      .withCommand([
        'postgres',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'max_connections=300',
      ])
      .withExposedPorts(5432)
      // The image's entrypoint restarts the server once after initdb: ready is said twice.
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start(),
  )
  return {
    adminUrl: `postgres://postgres:${password}@${container.getHost()}:${container.getMappedPort(5432)}/postgres`,
    stop: async () => {
      await container.stop()
    },
  }
}

export const startRedisContainer = async (): Promise<{
  port: number
  url: string
  stop(): Promise<void>
}> => {
  const container = await started('Redis', () =>
    new GenericContainer(REDIS_IMAGE)
      .withCommand(['redis-server', '--save', '', '--appendonly', 'no'])
      .withExposedPorts(6379)
      .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
      .start(),
  )
  const port = container.getMappedPort(6379)
  return {
    port,
    url: `redis://${container.getHost()}:${port}`,
    stop: async () => {
      await container.stop()
    },
  }
}

/// A real KurrentDB for the contract suite, or the reason there is none: `KURRENTDB_URL` when set
/// (a server the developer or CI runs), else a throwaway container through testcontainers when a
/// Docker engine answers (the image of `KURRENTDB_IMAGE`, by default the one docker-compose.yml
/// names). `@testcontainers/kurrentdb` would do the same, but needs testcontainers 12 and so
/// Node 22.22; this is its container, on testcontainers 11.

import { GenericContainer, getContainerRuntimeClient, type StartedTestContainer, Wait } from 'testcontainers'

export const DEFAULT_KURRENTDB_IMAGE = 'docker.io/kurrentplatform/kurrentdb:25.1'

/** Where to find a server; does not start one (that is `start`, in a hook with a long timeout). */
export const findKurrentDbServer = async (): Promise<
  { kind: 'url'; url: string } | { kind: 'docker' } | { kind: 'none'; reason: string }
> => {
  const url = process.env.KURRENTDB_URL?.trim()
  if (url) return { kind: 'url', url }
  try {
    await getContainerRuntimeClient()
    return { kind: 'docker' }
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error)
    return {
      kind: 'none',
      reason: `KURRENTDB_URL is not set and no Docker engine is reachable for testcontainers (${why})`,
    }
  }
}

export const startKurrentDbContainer = async (): Promise<{
  url: string
  container: StartedTestContainer
}> => {
  const container = await new GenericContainer(process.env.KURRENTDB_IMAGE ?? DEFAULT_KURRENTDB_IMAGE)
    .withExposedPorts(2113)
    .withEnvironment({
      KURRENTDB_CLUSTER_SIZE: '1',
      KURRENTDB_INSECURE: 'true',
      KURRENTDB_MEM_DB: 'true',
      KURRENTDB_TELEMETRY_OPTOUT: 'true',
    })
    .withStartupTimeout(120_000)
    .withWaitStrategy(Wait.forHealthCheck())
    .start()
  return { url: `kurrentdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`, container }
}

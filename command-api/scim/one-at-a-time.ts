/// SCIM creates of one organization, one membership at a time in this process. Every membership is
/// an event on the organization's one stream, so an IdP provisioning at c16 makes sixteen appends race
/// for one stream version: fifteen lose, read the stream again and retry, and past `handle`'s few
/// attempts the call failed with a 500. Queued here they never race within the process; between
/// instances the store's optimistic concurrency still decides, with the retries below.

import { ConcurrencyError } from '../../infra/event-store/event-store.js'

type Queues = Map<string, Promise<unknown>>

const queuesByApp = new WeakMap<object, Queues>()

const queuesOf = (app: object): Queues => {
  let queues = queuesByApp.get(app)
  if (!queues) {
    queues = new Map()
    queuesByApp.set(app, queues)
  }
  return queues
}

/**
 * Runs `work` after every earlier `work` of the same key (of this app) has settled or released its
 * turn: `work` may call `release` once what the next one must see is written (its append), and go
 * on (wait for the read models) while the next one runs.
 */
export const oneAtATime = <T>(
  app: object,
  key: string,
  work: (release: () => void) => Promise<T>,
): Promise<T> => {
  const queues = queuesOf(app)
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const start = () => work(release)
  const run = (queues.get(key) ?? Promise.resolve()).then(start, start)
  const tail = Promise.race([
    released,
    run.then(
      () => undefined,
      () => undefined,
    ),
  ])
  queues.set(key, tail)
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key)
  })
  return run
}

/** Another instance appended to the stream meanwhile: read it again, a bounded number of times. */
const ATTEMPTS = 8

export const retryingConcurrency = async <T>(work: () => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= ATTEMPTS) throw error
    }
  }
}

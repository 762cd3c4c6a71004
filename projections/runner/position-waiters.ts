/// Callers waiting for the read models to reach a position (read-your-writes), shared by both of
/// the projector's roles: the applier moves the checkpoint by applying batches, the follower by
/// reading another process's checkpoint. Either tells the registry; the registry answers waiters.

import { comparePositions, type GlobalPosition } from '../../infra/event-store/event-store.js'

type Waiter = { position: GlobalPosition; finish(reached: boolean): void }

export type PositionWaiters = {
  /**
   * Resolves true once `reached(position)` is told a position at or past it, false when `timeoutMs`
   * passes or the group halts. `whileWaiting` runs every `pollMs` until then (a follower polls).
   */
  wait(position: GlobalPosition, timeoutMs: number, poll?: { everyMs: number; run(): void }): Promise<boolean>
  reached(position: GlobalPosition): void
  /** The group halted: nobody's position will be reached until an operator acts. */
  halted(): void
  count(): number
}

export const createPositionWaiters = (): PositionWaiters => {
  const waiters = new Set<Waiter>()
  return {
    wait(position, timeoutMs, poll) {
      return new Promise<boolean>((resolve) => {
        const waiter: Waiter = {
          position,
          finish(reached) {
            clearTimeout(deadline)
            if (polling) clearInterval(polling)
            waiters.delete(waiter)
            resolve(reached)
          },
        }
        const deadline = setTimeout(() => waiter.finish(false), timeoutMs)
        const polling = poll ? setInterval(poll.run, poll.everyMs) : null
        waiters.add(waiter)
      })
    },
    reached(position) {
      for (const waiter of waiters) if (comparePositions(position, waiter.position) >= 0) waiter.finish(true)
    },
    halted() {
      for (const waiter of waiters) waiter.finish(false)
    },
    count: () => waiters.size,
  }
}

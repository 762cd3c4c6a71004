/// The CPU priority of a process that only projects (`serve --role projector`).
///
/// A projector that was stopped while the log grew catches up at full speed on start: batch after
/// batch of Node work with no pause. On a host it shares with `--role api` servers, that work took
/// the cores their requests needed (issue 31: get-session c8 went from 857/s to 518/s while a
/// separate projector process caught up on a 2-core machine). At nice 10 the serving processes come
/// first whenever both want a core, and the projector takes what is left: on an idle host it
/// applies as fast as ever, on a busy one it applies more slowly rather than slowing every request.
/// Read-your-writes holds either way (a command waits for the checkpoint to pass its events), and
/// nothing else about the projector changes: the order, the batches, the checkpoint.
///
/// Linux nice values belong to threads: every thread the process has is lowered, and the threads
/// started afterwards (libuv's pool, V8's helpers) inherit the main thread's. A value already
/// higher (a process started under `nice -n 15`) stays. An unprivileged process cannot raise its
/// priority again, so this is for a process that does nothing but project.

import { readdirSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'

/** As the password workers' (infra/crypto/scrypt/scrypt-workers.ts): about a tenth of a normal thread. */
export const PROJECTOR_NICE = 10

/** This process's threads (Linux), or the process itself (0) where nice values are the process's. */
const threadsOfThisProcess = (): number[] =>
  process.platform === 'linux' ? readdirSync('/proc/self/task').map(Number) : [0]

/** Lowers this process's CPU priority to `PROJECTOR_NICE` (see above). */
export const yieldCpuToServing = (): void => {
  for (const thread of threadsOfThisProcess()) {
    try {
      if (getPriority(thread) < PROJECTOR_NICE) setPriority(thread, PROJECTOR_NICE)
    } catch {
      // The thread ended between the listing and now: nothing left to lower.
    }
  }
}

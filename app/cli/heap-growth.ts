/// How far V8 lets the heap grow between full collections, for a long-running server.
///
/// After each full collection V8 sets the next one's trigger at up to four times what survived it,
/// more the faster the program allocates. A server under load allocates fast, so with ~50 MB live
/// its heap reached ~200 MB of mostly garbage before it was collected (PGlite under get-session
/// load, where requests queue on its one connection long enough for their garbage to be promoted).
/// At 1.2 times live the peak stayed near 400 MB in the same run instead of 553, at no measurable
/// cost in requests per second (bench figures in the issue 8 notes): the old generation is marked
/// concurrently, so collecting it more often costs little of the event loop's time.

import { setFlagsFromString } from 'node:v8'

/** The next full collection starts once the heap is this much larger than what survived the last. */
export const HEAP_GROWING_PERCENT = 20

/** For `serve` only: the CLI's one-off commands end before their heap matters. */
export const limitHeapGrowth = (): void => {
  // A flag V8 reads each time it sets the next limit, so setting it at run time takes effect.
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}

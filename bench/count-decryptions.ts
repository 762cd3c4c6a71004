/// A preload for the server under bench/verify-totp-cost.ts (`--import`): counts the AES decryptions
/// the process starts (`createDecipheriv`, what opening a sealed personal field or a data key costs)
/// and writes the count to `BENCH_DECRYPTIONS_FILE` when sent SIGUSR2, for the harness to read
/// between rounds (on demand: a file written on a timer cost the measured process CPU of its own).

import crypto from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'

const file = process.env.BENCH_DECRYPTIONS_FILE
if (file) {
  let count = 0
  const original = crypto.createDecipheriv
  crypto.createDecipheriv = ((...args: Parameters<typeof original>) => {
    count += 1
    return original(...args)
  }) as typeof original
  // Named imports (`import { createDecipheriv } from 'node:crypto'`) see the wrapper too.
  syncBuiltinESMExports()
  process.on('SIGUSR2', () => writeFileSync(file, String(count)))
}

/// Random bytes drawn from the CSPRNG a block at a time and handed out once each: a draw costs a
/// call into OpenSSL and a Buffer, more than an IV or a token's characters are worth on their own
/// (issues 33 and 35). A used block is never refilled in place (a slice handed out keeps its bytes),
/// so every slice is as random, and as unique, as one drawn on its own.

import { randomBytes } from 'node:crypto'

export type RandomPool = {
  /** `n` bytes no other call is given. */
  bytes(n: number): Buffer
  /** One byte no other call is given. */
  byte(): number
}

export const randomPool = (blockBytes: number): RandomPool => {
  let block = Buffer.alloc(0)
  let at = 0
  const ensure = (n: number) => {
    if (at + n <= block.length) return
    block = randomBytes(Math.max(blockBytes, n))
    at = 0
  }
  return {
    bytes(n) {
      ensure(n)
      const slice = block.subarray(at, at + n)
      at += n
      return slice
    },
    byte() {
      ensure(1)
      return block[at++] as number
    },
  }
}

// scrypt's memory-hard core, ROMix (RFC 7914, section 5), in AssemblyScript compiled to WebAssembly
// with SIMD. scripts/build-romix.mjs compiles it into romix-wasm.ts; romix-wasm.unit.spec.ts checks
// that the committed module is this source compiled.
//
// Salsa20/8 works on a 4×4 matrix of 32-bit words. Its quarter-rounds run four at a time when the
// matrix is held as its four diagonals, one 128-bit lane vector each:
//   a = (x0, x5, x10, x15)  b = (x4, x9, x14, x3)  c = (x8, x13, x2, x7)  d = (x12, x1, x6, x11)
// The column round is then four vector steps; the row round is the same steps after rotating the
// lanes of b, c and d so the row partners line up. Blocks are kept in that diagonal order from the
// start of ROMix to its end (XOR does not care about the order, and word 0, which Integerify
// reads, stays first), so the order is changed only twice per call.
//
// Memory: V would be N blocks of 128·r bytes, 32 MB with better-auth's parameters. Only its even
// blocks are kept, and an odd one is made again from the one before when the second loop asks for
// it: half the memory for a quarter more work (half of the N lookups cost one BlockMix more, on top
// of 2·N). With one check per core, the 16 MB saved per check is what keeps the server's peak
// resident memory under its 200 MB target on PostgreSQL.
// The working area starts at `workArea()`: X, a second X and a scratch block (128·r bytes each),
// then the N / 2 kept blocks of V. The caller grows the memory to fit and writes the input block at
// `workArea()`.

@inline function rotl(v: v128, n: i32): v128 {
  return v128.or(i32x4.shl(v, n), i32x4.shr_u(v, 32 - n))
}

/**
 * BlockMix of the 2·r blocks at `src` (xor those at `other`, unless it is 0) into `dst`, which
 * must overlap neither. The Salsa20/8 state stays in four lane vectors from block to block.
 */
function blockMix(src: usize, other: usize, dst: usize, r: i32): void {
  const tail = <usize>(2 * r - 1) << 6
  let a = v128.load(src + tail)
  let b = v128.load(src + tail, 16)
  let c = v128.load(src + tail, 32)
  let d = v128.load(src + tail, 48)
  if (other != 0) {
    a = v128.xor(a, v128.load(other + tail))
    b = v128.xor(b, v128.load(other + tail, 16))
    c = v128.xor(c, v128.load(other + tail, 32))
    d = v128.xor(d, v128.load(other + tail, 48))
  }
  for (let i = 0; i < 2 * r; i++) {
    const s = src + (<usize>i << 6)
    a = v128.xor(a, v128.load(s))
    b = v128.xor(b, v128.load(s, 16))
    c = v128.xor(c, v128.load(s, 32))
    d = v128.xor(d, v128.load(s, 48))
    if (other != 0) {
      const o = other + (<usize>i << 6)
      a = v128.xor(a, v128.load(o))
      b = v128.xor(b, v128.load(o, 16))
      c = v128.xor(c, v128.load(o, 32))
      d = v128.xor(d, v128.load(o, 48))
    }
    // Salsa20/8: four double rounds, then the input added back.
    const a0 = a
    const b0 = b
    const c0 = c
    const d0 = d
    for (let round = 0; round < 4; round++) {
      // Column round.
      b = v128.xor(b, rotl(i32x4.add(a, d), 7))
      c = v128.xor(c, rotl(i32x4.add(b, a), 9))
      d = v128.xor(d, rotl(i32x4.add(c, b), 13))
      a = v128.xor(a, rotl(i32x4.add(d, c), 18))
      // Row round: b, c and d turned so that each lane meets its row partners, then turned back.
      b = v128.shuffle<i32>(b, b, 3, 0, 1, 2)
      c = v128.shuffle<i32>(c, c, 2, 3, 0, 1)
      d = v128.shuffle<i32>(d, d, 1, 2, 3, 0)
      d = v128.xor(d, rotl(i32x4.add(a, b), 7))
      c = v128.xor(c, rotl(i32x4.add(d, a), 9))
      b = v128.xor(b, rotl(i32x4.add(c, d), 13))
      a = v128.xor(a, rotl(i32x4.add(b, c), 18))
      b = v128.shuffle<i32>(b, b, 1, 2, 3, 0)
      c = v128.shuffle<i32>(c, c, 2, 3, 0, 1)
      d = v128.shuffle<i32>(d, d, 3, 0, 1, 2)
    }
    a = i32x4.add(a, a0)
    b = i32x4.add(b, b0)
    c = i32x4.add(c, c0)
    d = i32x4.add(d, d0)
    // The even blocks' results first, then the odd ones'.
    const to = dst + (<usize>((i & 1) * r + (i >> 1)) << 6)
    v128.store(to, a)
    v128.store(to, b, 16)
    v128.store(to, c, 32)
    v128.store(to, d, 48)
  }
}

// Word i of a block in diagonal order is word DIAGONAL[i] of the block in natural order.
const DIAGONAL: StaticArray<i32> = [0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11]

/** Reorders every 64-byte block of [at, at + bytes): natural to diagonal order, or back. */
function reorder(at: usize, bytes: usize, toDiagonal: bool): void {
  const scratch = memory.data(64)
  for (let block: usize = 0; block < bytes; block += 64) {
    const base = at + block
    for (let i = 0; i < 16; i++) {
      const diagonal = <usize>i << 2
      const natural = <usize>unchecked(DIAGONAL[i]) << 2
      store<u32>(scratch + (toDiagonal ? diagonal : natural), load<u32>(base + (toDiagonal ? natural : diagonal)))
    }
    memory.copy(base, scratch, 64)
  }
}

/** Where the caller writes the input block and reads the result; 64-byte aligned. */
export function workArea(): usize {
  return (__heap_base + 63) & ~(<usize>63)
}

/** Bytes of memory ROMix needs for cost `n` and block size `r`, from address 0. */
export function memoryNeeded(n: i32, r: i32): f64 {
  return <f64>workArea() + <f64>(n / 2 + 3) * <f64>(128 * r)
}

/** ROMix, in place on the 128·r bytes at `workArea()`; `n` is a power of two. */
export function romix(n: i32, r: i32): void {
  const size = <usize>(128 * r)
  const x = workArea()
  const y = x + size
  const t = y + size
  const v = t + size
  reorder(x, size, true)
  // V[i + 1] = BlockMix(V[i]) from V[0] = X, keeping the even ones only; X = BlockMix(V[N - 1]).
  memory.copy(v, x, size)
  const half = n >> 1
  for (let k = 0; k < half; k++) {
    blockMix(v + <usize>k * size, 0, t, r)
    blockMix(t, 0, k + 1 < half ? v + <usize>(k + 1) * size : x, r)
  }
  // N times: X = BlockMix(X xor V[Integerify(X) mod N]), between the two X buffers. An odd V[j] is
  // made again from V[j - 1], one BlockMix more.
  let from = x
  let to = y
  for (let i = 0; i < n; i++) {
    const j = load<u32>(from + size - 64) & <u32>(n - 1)
    let other = v + <usize>(j >> 1) * size
    if (j & 1) {
      blockMix(other, 0, t, r)
      other = t
    }
    blockMix(from, other, to, r)
    const turned = from
    from = to
    to = turned
  }
  if (from != x) memory.copy(x, from, size)
  reorder(x, size, false)
}

/// How many password checks a second this machine does, measured once before the servers start.
/// The open-loop mix offers sign-ins at a share of it: at a fixed rate, a slower machine (the bench
/// machine went from ~25 checks a second to 8.7 between sessions) was offered more sign-ins than
/// either server could check, its queue grew through the window, and the scenario measured the
/// window's length rather than the servers.
///
/// Measured with better-auth's own `hashPassword` (node:crypto's scrypt on libuv's pool): Tessera's
/// checks (WebAssembly with SIMD) take about 60% of its CPU, so at a share of Tessera's rate
/// better-auth would be offered more sign-ins than it can check.

import { availableParallelism } from 'node:os'
import { hashPassword } from 'better-auth/crypto'

/** Checks timed: a few rounds of one per core, after one to warm up. */
const ROUNDS = 3

/** Password checks a second with every core hashing, as better-auth hashes. */
export const measurePasswordChecksPerSecond = async (cores = availableParallelism()): Promise<number> => {
  await hashPassword('warm-up')
  const started = performance.now()
  for (let round = 0; round < ROUNDS; round += 1)
    await Promise.all(Array.from({ length: cores }, (_, n) => hashPassword(`calibration ${round} ${n}`)))
  return (ROUNDS * cores) / ((performance.now() - started) / 1000)
}

/**
 * The open mix's sign-in share is that of `mixed c64` (10%); sign-ins arrive at this fraction of
 * what the machine can check, so both servers can keep up while the password work still takes most
 * of the CPU (the first fixed rates, 15 sign-ins of ~25 possible a second, were the same 60%).
 */
const SIGN_IN_LOAD = 0.6
const GET_SESSIONS_PER_SIGN_IN = 9

export type MixedOpenRates = { getSession: number; signIn: number }

export const mixedOpenRates = (passwordChecksPerSecond: number): MixedOpenRates => {
  const signIn = Math.max(1, Math.round(SIGN_IN_LOAD * passwordChecksPerSecond * 10) / 10)
  return { signIn, getSession: Math.round(signIn * GET_SESSIONS_PER_SIGN_IN * 10) / 10 }
}

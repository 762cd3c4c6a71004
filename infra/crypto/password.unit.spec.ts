import * as betterAuth from 'better-auth/crypto'
import { describe, expect, it } from 'vitest'
import { niceOfThread, threadNiceValues } from '../../tests/support/thread-nice.js'
import { burnPasswordCheck, dummyPasswordHash, hashPassword, verifyPassword } from './password.js'
import { scryptConcurrency, WORKER_NICE } from './scrypt/scrypt-workers.js'

describe('password hashing', () => {
  it('stores a 16-byte salt and a 64-byte key as hex, salted afresh each time', async () => {
    const first = await hashPassword('correct horse')
    const second = await hashPassword('correct horse')
    expect(first).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/)
    expect(second).not.toBe(first)
  })

  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('correct horse')
    expect(await verifyPassword(stored, 'correct horse')).toBe(true)
    expect(await verifyPassword(stored, 'correct horsE')).toBe(false)
  })

  it('normalises with NFKC, so equivalent spellings of a password match', async () => {
    const stored = await hashPassword('Cafe\u0301 \uFB01le') // decomposed é, "fi" ligature
    expect(await verifyPassword(stored, 'Caf\u00E9 file')).toBe(true)
  })

  it('verifies hashes made by better-auth, and better-auth verifies ours', async () => {
    const theirs = await betterAuth.hashPassword('pässword-1')
    expect(await verifyPassword(theirs, 'pässword-1')).toBe(true)
    expect(await verifyPassword(theirs, 'password-1')).toBe(false)
    const ours = await hashPassword('pässword-2')
    expect(await betterAuth.verifyPassword({ hash: ours, password: 'pässword-2' })).toBe(true)
  })

  it.each([
    '',
    'no-colon',
    ':',
    `${'a'.repeat(32)}:`,
    `:${'a'.repeat(128)}`,
    `${'a'.repeat(32)}:${'a'.repeat(127)}`,
    `${'a'.repeat(32)}:${'g'.repeat(128)}`,
    `${'a'.repeat(32)}:${'a'.repeat(128)}:extra`,
  ])('answers false, without throwing, for the malformed hash %j', async (stored) => {
    await expect(verifyPassword(stored, 'anything')).resolves.toBe(false)
  })

  it('hashes off the event loop: timers keep firing while scrypt works', async () => {
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    try {
      await hashPassword('correct horse')
    } finally {
      clearInterval(timer)
    }
    expect(ticks).toBeGreaterThan(0)
  })

  it.runIf(process.platform === 'linux')(
    'runs scrypt on threads at the lowest priority, so sign-ins cannot starve other requests',
    async () => {
      await Promise.all([hashPassword('correct horse'), hashPassword('battery staple')])
      // Every worker that ran a check, and no other thread.
      expect(threadNiceValues().filter((nice) => nice === WORKER_NICE)).toHaveLength(scryptConcurrency())
      // The thread running this test (an event loop) keeps the normal priority.
      expect(niceOfThread('self')).toBe(0)
    },
  )
})

describe('the unknown-user password check', () => {
  it('uses one well-formed dummy hash that no password matches', async () => {
    const dummy = dummyPasswordHash()
    expect(dummy).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/)
    expect(dummyPasswordHash()).toBe(dummy)
    expect(await verifyPassword(dummy, '')).toBe(false)
  })

  it('always answers false', async () => {
    expect(await burnPasswordCheck('correct horse')).toBe(false)
  })
})

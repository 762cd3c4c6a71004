import { randomBytes, scrypt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ScryptParamsError, scryptConcurrency, scryptOnWorkers } from './scrypt-workers.js'

const MB = 1024 * 1024

/** node:crypto's scrypt (OpenSSL's), the reference. */
const reference = (
  password: string,
  salt: string,
  keyBytes: number,
  params: { N: number; r: number; p: number },
) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, keyBytes, { ...params, maxmem: 256 * MB }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  )

describe('scrypt on the workers', () => {
  it("gives RFC 7914's test vectors", async () => {
    const empty = await scryptOnWorkers('', '', 64, { N: 16, r: 1, p: 1, maxmem: 32 * MB })
    expect(empty.toString('hex')).toBe(
      '77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906',
    )
    const nacl = await scryptOnWorkers('password', 'NaCl', 64, { N: 1024, r: 8, p: 16, maxmem: 32 * MB })
    expect(nacl.toString('hex')).toBe(
      'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640',
    )
  })

  it.each([
    { N: 16384, r: 16, p: 1, keyBytes: 64 }, // better-auth's, what passwords use
    { N: 2, r: 1, p: 1, keyBytes: 1 },
    { N: 64, r: 3, p: 2, keyBytes: 100 },
    { N: 256, r: 5, p: 3, keyBytes: 32 },
  ])(
    'gives what node:crypto gives, for N=$N r=$r p=$p and $keyBytes bytes',
    async ({ keyBytes, ...params }) => {
      for (let round = 0; round < 3; round++) {
        // Passwords of every length class, with multi-byte characters; salts as better-auth makes them.
        const password = `${randomBytes(round * 13).toString('base64')}é✓${round}`
        const salt = randomBytes(16).toString('hex')
        const ours = await scryptOnWorkers(password, salt, keyBytes, { ...params, maxmem: 64 * MB })
        expect(ours.toString('hex')).toBe((await reference(password, salt, keyBytes, params)).toString('hex'))
      }
    },
  )

  it('gives the same keys when checks run side by side on every worker', async () => {
    const params = { N: 1024, r: 8, p: 1 }
    const inputs = Array.from({ length: 3 * scryptConcurrency() }, (_, i) => [`pw${i}`, `salt${i}`] as const)
    const ours = await Promise.all(
      inputs.map(([password, salt]) => scryptOnWorkers(password, salt, 64, { ...params, maxmem: 32 * MB })),
    )
    const theirs = await Promise.all(inputs.map(([password, salt]) => reference(password, salt, 64, params)))
    expect(ours.map((key) => key.toString('hex'))).toEqual(theirs.map((key) => key.toString('hex')))
  })

  it.each([
    [{ N: 3, r: 1, p: 1, maxmem: 32 * MB }, 16, /power of two/],
    [{ N: 1, r: 1, p: 1, maxmem: 32 * MB }, 16, /power of two/],
    [{ N: 1024, r: 0, p: 1, maxmem: 32 * MB }, 16, /r and p/],
    [{ N: 1024, r: 8, p: 1.5, maxmem: 32 * MB }, 16, /r and p/],
    [{ N: 1024, r: 8, p: 1, maxmem: 32 * MB }, 0, /at least one byte/],
    [{ N: 16384, r: 16, p: 1, maxmem: 32 * MB - 1 }, 64, /memory limit/],
  ])(
    'refuses %o with a %i-byte key, and keeps serving the checks after it',
    async (params, keyBytes, message) => {
      await expect(scryptOnWorkers('pw', 'salt', keyBytes, params)).rejects.toThrow(message)
      await expect(scryptOnWorkers('pw', 'salt', keyBytes, params)).rejects.toBeInstanceOf(ScryptParamsError)
      const key = await scryptOnWorkers('pw', 'salt', 16, { N: 1024, r: 8, p: 1, maxmem: 32 * MB })
      expect(key).toEqual(await reference('pw', 'salt', 16, { N: 1024, r: 8, p: 1 }))
    },
  )
})

describe('how many password checks run at once', () => {
  it.each([
    [2, 2],
    [8, 8],
    [1, 1],
    [0, 1],
  ])('with %i cores: %i', (cores, expected) => {
    expect(scryptConcurrency(cores)).toBe(expected)
  })
})

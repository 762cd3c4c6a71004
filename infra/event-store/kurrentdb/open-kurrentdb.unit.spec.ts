import { createServer } from 'node:net'
import { describe, expect, test } from 'vitest'
import { ConfigError } from '../../config/config-error.js'
import { openKurrentLog } from './open-kurrentdb.js'

/** A local port nothing listens on: taken from the system, then released. */
const closedPort = async (): Promise<number> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

describe('opening KurrentDB from KURRENTDB_URL', () => {
  test('a URL the client cannot read is refused at once, naming the variable and not echoing the URL', () => {
    for (const url of ['http://events:2113', 'kurrentdb://admin:hunter2@events:2113?tls=maybe']) {
      let error: unknown
      try {
        openKurrentLog(url)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(ConfigError)
      expect(error).toMatchObject({ key: 'KURRENTDB_URL', message: expect.stringContaining('KURRENTDB_URL') })
      expect((error as Error).message).not.toContain('hunter2')
    }
  })

  test('a server that does not answer fails the check within its bound, naming the variable', async () => {
    const port = await closedPort()
    const opened = openKurrentLog(`kurrentdb://admin:hunter2@127.0.0.1:${port}?tls=false`)
    const started = Date.now()
    const check = opened.checkReachable(2000)
    await expect(check).rejects.toBeInstanceOf(ConfigError)
    await expect(check).rejects.toMatchObject({
      key: 'KURRENTDB_URL',
      message: expect.stringMatching(/^KURRENTDB_URL: KurrentDB did not answer/),
    })
    expect(Date.now() - started).toBeLessThan(4000)
    await expect(check).rejects.not.toMatchObject({ message: expect.stringContaining('hunter2') })
  })
})

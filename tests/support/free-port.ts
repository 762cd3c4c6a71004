/// A TCP port free on loopback at the moment of asking: the system picks it for a probe that closes at
/// once, so a child process or server started next can listen on it.

import { createServer } from 'node:net'

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })

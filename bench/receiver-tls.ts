/// A certificate for the webhook receiver (bench/webhooks.ts): the benchmarked Tessera runs in
/// production mode, where a webhook URL must be https, so the receiver on 127.0.0.1 serves TLS with
/// a self-signed certificate made once per run (by the `openssl` command), and Tessera is started
/// trusting it through Node's own `NODE_EXTRA_CA_CERTS`: no option of Tessera's is relaxed.

import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type ReceiverTls = { certPath: string; cert: string; key: string }

let made: ReceiverTls | undefined

export const receiverTls = (): ReceiverTls => {
  if (made) return made
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-tls-'))
  const [keyPath, certPath] = [join(dir, 'key.pem'), join(dir, 'cert.pem')]
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
      .concat(['-keyout', keyPath, '-out', certPath, '-days', '2', '-subj', '/CN=127.0.0.1'])
      .concat(['-addext', 'subjectAltName=IP:127.0.0.1']),
    { stdio: 'ignore' },
  )
  made = { certPath, cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') }
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  return made
}

/// What one webhook request costs Tessera's event loop, apart from everything around it (issue 34):
/// `node dist/bench/webhook-client-cost.js [endpoints] [requests] [rounds]` (after `npm run build`;
/// 8, 2000, 8). The bench's TLS receiver (webhook-receiver.ts) runs in a worker thread, so its CPU is
/// not this thread's; `endpoints` endpoints on it are posted to one request at a time each, as the
/// endpoint workers do, through the delivery's own `postWebhook` and endpoint targets, each request signed.
/// Printed per round: this thread's CPU microseconds per request, from /proc's schedstat (nanoseconds,
/// where /proc's stat counts 10 ms ticks), and the median over the rounds. On a loaded machine the
/// rounds spread by a quarter: compare medians of runs made one after the other.

import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { addressPolicy } from '../infra/webhooks/address-guard.js'
import { newWebhookSecret, signatureHeader } from '../infra/webhooks/signature.js'
import { createEndpointTargets } from '../projections/reactors/webhooks/endpoint-targets.js'
import { postWebhook } from '../projections/reactors/webhooks/post-webhook.js'
import { receiverTls } from './receiver-tls.js'
import { startReceiver } from './webhook-receiver.js'

type Tls = { cert: string; key: string }

/** This thread's CPU milliseconds so far (the main thread's task). */
const threadMs = () =>
  Number(readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6

const receive = async (tls: Tls) => {
  const receiver = await startReceiver(tls)
  parentPort?.postMessage(receiver.url(0).replace(/0$/, ''))
  setInterval(() => undefined, 60_000) // the receiver's server is unref'd; the parent ends the worker
}

const measure = async (tls: Tls) => {
  const [endpoints = 8, requests = 2000, rounds = 8] = process.argv.slice(2).map(Number)
  const worker = new Worker(new URL(import.meta.url), { workerData: tls })
  const base = await new Promise<string>((resolve) => worker.once('message', resolve))
  const policy = addressPolicy(['127.0.0.0/8'])
  const endpointTargets = createEndpointTargets()
  const secret = newWebhookSecret()
  const at = new Date().toISOString()
  const data = { id: 'u'.repeat(24), email: 'bench-client@example.test', name: 'Bench Client', createdAt: at }
  const body = JSON.stringify({ type: 'user.created', timestamp: at, data })
  let sent = 0
  const post = async (endpoint: number) => {
    const id = `msg_${sent++}`
    const timestamp = Math.floor(Date.now() / 1000)
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader([secret], id, timestamp, body),
      'user-agent': 'Tessera-Webhooks/1',
    }
    const result = await postWebhook(policy, `${base}${endpoint}`, headers, body, endpointTargets)
    if (!result.ok) throw new Error(`delivery failed: ${JSON.stringify(result)}`)
  }
  const round = (each: number) =>
    Promise.all(
      Array.from({ length: endpoints }, async (_, endpoint) => {
        for (let i = 0; i < each; i += 1) await post(endpoint)
      }),
    )
  await round(Math.ceil(requests / endpoints / 4)) // connections made, code compiled
  const perRequest: number[] = []
  for (let r = 0; r < rounds; r += 1) {
    const before = threadMs()
    await round(Math.ceil(requests / endpoints))
    perRequest.push((1000 * (threadMs() - before)) / (endpoints * Math.ceil(requests / endpoints)))
    console.log(`round ${r + 1}: ${perRequest.at(-1)?.toFixed(1)} µs of this thread per request`)
  }
  const sorted = perRequest.sort((a, b) => a - b)
  console.log(`median ${sorted[sorted.length >> 1]?.toFixed(1)} µs per request (${endpoints} endpoints)`)
  endpointTargets.close()
  await worker.terminate()
}

if (!isMainThread) await receive(workerData as Tls)
else if (process.env.BENCH_CLIENT_COST_CERT === undefined) {
  // Node reads NODE_EXTRA_CA_CERTS at start only: the measuring process is started trusting the
  // receiver's certificate (nothing of the client's checking relaxed), and given it to serve.
  const { certPath, cert, key } = receiverTls()
  const env = {
    ...process.env,
    NODE_EXTRA_CA_CERTS: certPath,
    BENCH_CLIENT_COST_CERT: cert,
    BENCH_CLIENT_COST_KEY: key,
  }
  const child = spawnSync(process.execPath, process.argv.slice(1), { env, stdio: 'inherit' })
  process.exitCode = child.status ?? 1
} else
  await measure({ cert: process.env.BENCH_CLIENT_COST_CERT, key: process.env.BENCH_CLIENT_COST_KEY ?? '' })

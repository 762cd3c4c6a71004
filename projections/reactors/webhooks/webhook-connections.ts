/// The deliveries' connections, kept alive between requests, and one request on one of them: the
/// request's head and body written at once (one TLS record, one socket write), and the answer read
/// by answer-framing.ts. node:http's client (a request and an answer object with their streams, the
/// agent's bookkeeping, the parser's callbacks per answer) cost a signed delivery about twice the
/// event loop's CPU of doing this: ~250 against ~120 µs (bench/webhook-client-cost.ts; issue 34).
/// What node:http did that matters is kept:
/// - a connection goes only to the address checked for its target (the target's pinned `lookup`),
///   and is reused only by requests to the same protocol, address, port and name (`key`);
/// - TLS verifies the certificate against the URL's name (node:tls's defaults: a trusted chain, the
///   name checked), the name sent as SNI;
/// - one timer bounds the request from the first connection attempt to the answer's end;
/// - a kept-alive connection that closes before any byte of the answer came (the endpoint dropped it
///   as the request went out) is sent on once more, on a new connection, within the same bound;
/// - idle connections close after IDLE_MS, and do not keep the process alive.

import net from 'node:net'
import tls from 'node:tls'
import { type AnswerReader, answerReader } from './answer-framing.js'

export type ConnectionTarget = {
  secure: boolean
  /** The URL's host name (or address): TLS checks the certificate against it. */
  host: string
  port: number
  /** The name sent for SNI: '' for an address. */
  servername: string
  /** Answers with the checked address only (endpoint-targets.ts). */
  lookup: net.LookupFunction
  /** Which kept connections the target may use: protocol, pinned address, port and names. */
  key: string
}

/** How long an idle connection is kept: under the 5 s after which node:http's servers close theirs. */
export const IDLE_MS = 4000
const IDLE_PER_KEY = 64

type Connection = {
  socket: net.Socket
  key: string
  idleSince: number
  error: Error | null
  onData: ((chunk: Buffer) => void) | null
  onGone: ((error: Error | null) => void) | null
}

export type Connections = {
  /** Sends `request` (head and body) to the target; the answer's status once it has ended. */
  send(target: ConnectionTarget, request: string, timeoutMs: number): Promise<number>
  close(): void
}

export const createConnections = ({
  idleMs = IDLE_MS,
  now = () => performance.now(),
}: {
  idleMs?: number
  now?: () => number
} = {}): Connections => {
  const idle = new Map<string, Connection[]>()
  const open = new Set<Connection>()
  let sweeping: NodeJS.Timeout | null = null

  const dropIdle = (connection: Connection) => {
    const list = idle.get(connection.key)
    const at = list?.indexOf(connection) ?? -1
    if (list && at >= 0) list.splice(at, 1)
    if (list?.length === 0) idle.delete(connection.key)
  }

  const connect = (target: ConnectionTarget): Connection => {
    const options = { host: target.host, port: target.port, lookup: target.lookup }
    const socket = target.secure
      ? tls.connect({ ...options, servername: target.servername })
      : net.connect(options)
    socket.setNoDelay(true)
    const connection: Connection = {
      socket,
      key: target.key,
      idleSince: 0,
      error: null,
      onData: null,
      onGone: null,
    }
    open.add(connection)
    // Bytes on an idle connection answer nothing that was asked: the connection goes.
    socket.on('data', (chunk: Buffer) => (connection.onData ? connection.onData(chunk) : socket.destroy()))
    socket.on('error', (error) => {
      connection.error ??= error
    })
    socket.on('close', () => {
      open.delete(connection)
      dropIdle(connection)
      const gone = connection.onGone
      connection.onData = null
      connection.onGone = null
      gone?.(connection.error)
    })
    return connection
  }

  const takeIdle = (key: string): Connection | null => {
    const list = idle.get(key)
    while (list && list.length > 0) {
      const connection = list.pop() as Connection
      if (!connection.socket.destroyed && now() - connection.idleSince < idleMs) return connection
      connection.socket.destroy()
    }
    idle.delete(key)
    return null
  }

  const sweep = () => {
    for (const list of idle.values())
      for (const connection of [...list])
        if (now() - connection.idleSince >= idleMs) connection.socket.destroy()
  }

  const release = (connection: Connection, reusable: boolean) => {
    connection.onData = null
    connection.onGone = null
    const list = idle.get(connection.key) ?? []
    if (!reusable || connection.socket.destroyed || list.length >= IDLE_PER_KEY) {
      connection.socket.destroy()
      return
    }
    connection.socket.unref()
    connection.idleSince = now()
    list.push(connection)
    idle.set(connection.key, list)
    sweeping ??= setInterval(sweep, idleMs).unref()
  }

  const send = (target: ConnectionTarget, request: string, timeoutMs: number) =>
    new Promise<number>((resolve, reject) => {
      let current: Connection | null = null
      let reader: AnswerReader = answerReader()
      let settled = false
      const finish = (error: Error | null) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        if (current) release(current, error === null && reader.reusable)
        if (error) reject(error)
        else resolve(reader.status as number)
      }
      const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)

      const exchange = (connection: Connection, reused: boolean) => {
        current = connection
        reader = answerReader()
        connection.onData = (chunk) => {
          try {
            if (reader.feed(chunk)) finish(null)
          } catch (error) {
            finish(error as Error)
          }
        }
        connection.onGone = (error) => {
          current = null
          if (reader.closed() && error === null) finish(null)
          else if (reused && !reader.started) begin(false)
          else finish(error ?? new Error('the connection closed before the answer ended'))
        }
        connection.socket.ref()
        connection.socket.write(request)
      }

      const begin = (mayReuse: boolean) => {
        const kept = mayReuse ? takeIdle(target.key) : null
        if (kept) return exchange(kept, true)
        const connection = connect(target)
        current = connection
        connection.onGone = (error) => {
          current = null
          finish(error ?? new Error('the connection closed before it was made'))
        }
        connection.socket.once(target.secure ? 'secureConnect' : 'connect', () => {
          if (!settled) exchange(connection, false)
        })
      }

      begin(true)
    })

  return {
    send,
    close() {
      if (sweeping) clearInterval(sweeping)
      sweeping = null
      for (const connection of open) connection.socket.destroy()
      open.clear()
      idle.clear()
    },
  }
}

/// A tiny DNS server on loopback (UDP) answering TXT questions from a map, so domain verification
/// runs through node:dns's real resolver. Every other question, or an unknown name, is NXDOMAIN.

import { createSocket } from 'node:dgram'
import { once } from 'node:events'

export type TestDns = { server: string; txt: Map<string, string[]>; close(): Promise<void> }

const TXT = 16

const questionOf = (packet: Buffer): { name: string; end: number; type: number } => {
  const labels: string[] = []
  let offset = 12
  while (packet[offset] !== 0) {
    const length = packet[offset] ?? 0
    labels.push(packet.subarray(offset + 1, offset + 1 + length).toString('ascii'))
    offset += length + 1
  }
  return { name: labels.join('.').toLowerCase(), end: offset + 5, type: packet.readUInt16BE(offset + 1) }
}

const answer = (query: Buffer, records: readonly string[]): Buffer => {
  const { end } = questionOf(query)
  const header = Buffer.alloc(12)
  query.copy(header, 0, 0, 2)
  header.writeUInt16BE(records.length > 0 ? 0x8180 : 0x8183, 2)
  header.writeUInt16BE(1, 4)
  header.writeUInt16BE(records.length, 6)
  const answers = records.map((text) => {
    const data = Buffer.from(text, 'utf8')
    const rr = Buffer.alloc(12)
    rr.writeUInt16BE(0xc00c, 0)
    rr.writeUInt16BE(TXT, 2)
    rr.writeUInt16BE(1, 4)
    rr.writeUInt32BE(60, 6)
    rr.writeUInt16BE(data.length + 1, 10)
    return Buffer.concat([rr, Buffer.from([data.length]), data])
  })
  return Buffer.concat([header, query.subarray(12, end), ...answers])
}

export const startDns = async (): Promise<TestDns> => {
  const txt = new Map<string, string[]>()
  const socket = createSocket('udp4')
  socket.on('message', (query, peer) => {
    const { name, type } = questionOf(query)
    const records = type === TXT ? (txt.get(name) ?? []) : []
    socket.send(answer(query, records), peer.port, peer.address)
  })
  socket.bind(0, '127.0.0.1')
  await once(socket, 'listening')
  const { port } = socket.address()
  return {
    server: `127.0.0.1:${port}`,
    txt,
    close: async () => {
      socket.close()
      await once(socket, 'close')
    },
  }
}

/// A real SMTP server on loopback that keeps every mail it receives, for tests.
///
///   const sink = await startSmtpSink()                  // or startSmtpSink({ port, auth })
///   // configure Tessera with SMTP_URL=sink.url
///   const mail = await sink.waitForMail((m) => m.to.includes('ann@example.com'))
///   mail.subject; mail.text; mail.html; mail.links[0]   // decoded, ready to assert on
///   await sink.close()
///
/// `waitForMail` also looks at mails that arrived before it was called; call `clear()` between
/// steps when a test expects a second mail of the same kind.

import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server'

export type ReceivedMail = {
  /** Envelope sender (MAIL FROM). */
  from: string
  /** Envelope recipients (RCPT TO), as sent. */
  to: string[]
  /** Decoded Subject header. */
  subject: string
  /** Decoded text/plain part, '' when absent. */
  text: string
  /** Decoded text/html part, '' when absent. */
  html: string
  /** http(s) URLs found in the text part, in order. */
  links: string[]
  /** Top-level headers: lower-case names, decoded values, first occurrence wins. */
  headers: ReadonlyMap<string, string>
  /** The message as received, bytes read as latin1. */
  raw: string
}

export type SmtpSink = {
  port: number
  /** `smtp://[user:pass@]127.0.0.1:port`, ready to use as SMTP_URL. */
  url: string
  /** Every mail received so far, oldest first. */
  readonly messages: readonly ReceivedMail[]
  /** Resolves with the first mail (already received or yet to come) that matches; rejects after timeoutMs. */
  waitForMail(predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>
  /** Forgets the mails received so far. */
  clear(): void
  close(): Promise<void>
}

export type SmtpSinkOptions = {
  /** 0 (default) picks a free port. */
  port?: number
  /** When set, clients must log in with these credentials (plain AUTH, no TLS: loopback only). */
  auth?: { user: string; pass: string }
}

type Waiter = { predicate: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }

export const startSmtpSink = async (options: SmtpSinkOptions = {}): Promise<SmtpSink> => {
  const messages: ReceivedMail[] = []
  const waiters = new Set<Waiter>()
  const receive = (mail: ReceivedMail) => {
    messages.push(mail)
    for (const waiter of waiters) {
      if (!waiter.predicate(mail)) continue
      waiters.delete(waiter)
      waiter.resolve(mail)
    }
  }
  const server = createServer(options.auth, receive)
  const port = await listen(server, options.port ?? 0)
  const credentials = options.auth
    ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@`
    : ''
  return {
    port,
    url: `smtp://${credentials}127.0.0.1:${port}`,
    messages,
    waitForMail: (predicate = () => true, timeoutMs = 5_000) =>
      waitFor(messages, waiters, predicate, timeoutMs),
    clear: () => {
      messages.length = 0
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const createServer = (auth: SmtpSinkOptions['auth'], receive: (mail: ReceivedMail) => void) =>
  new SMTPServer({
    logger: false,
    // No TLS: the default certificate would fail verification in a client, and loopback needs none.
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !auth,
    allowInsecureAuth: true,
    onAuth(login, _session, callback) {
      if (auth && login.username === auth.user && login.password === auth.pass) {
        callback(null, { user: login.username })
        return
      }
      callback(new Error('Invalid username or password'))
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        try {
          receive(toReceivedMail(Buffer.concat(chunks).toString('latin1'), session))
          callback()
        } catch (error) {
          callback(error instanceof Error ? error : new Error(String(error)))
        }
      })
    },
  })

const listen = (server: SMTPServer, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      const address = server.server.address()
      if (address === null || typeof address === 'string') reject(new Error('SMTP sink has no TCP address'))
      else resolve(address.port)
    })
  })

const waitFor = (
  messages: readonly ReceivedMail[],
  waiters: Set<Waiter>,
  predicate: (mail: ReceivedMail) => boolean,
  timeoutMs: number,
) => {
  const found = messages.find(predicate)
  if (found) return Promise.resolve(found)
  return new Promise<ReceivedMail>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiters.delete(waiter)
      const seen = messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none'
      reject(new Error(`no matching mail within ${timeoutMs} ms (received: ${seen})`))
    }, timeoutMs)
    const waiter: Waiter = {
      predicate,
      resolve: (mail) => {
        clearTimeout(timer)
        resolve(mail)
      },
    }
    waiters.add(waiter)
  })
}

const toReceivedMail = (raw: string, session: SMTPServerSession): ReceivedMail => {
  const message = parseEntity(raw)
  const text = findPart(message, 'text/plain')
  return {
    from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
    to: session.envelope.rcptTo.map((recipient) => recipient.address),
    subject: message.headers.get('subject') ?? '',
    text,
    html: findPart(message, 'text/html'),
    // Trailing punctuation belongs to the sentence, not the link.
    links: (text.match(/https?:\/\/[^\s<>"]+/g) ?? []).map((link) => link.replace(/[.,;:!?)]+$/, '')),
    headers: message.headers,
    raw,
  }
}

/// A small MIME reader: enough for what nodemailer writes (multipart, base64, quoted-printable,
/// RFC 2047 headers). Strings hold bytes as latin1 until a part is decoded with its charset.

type Entity = { headers: Map<string, string>; contentType: string; body: string; parts: Entity[] }

const parseEntity = (raw: string): Entity => {
  const split = /\r?\n\r?\n/.exec(raw)
  const headerBlock = split ? raw.slice(0, split.index) : raw
  const body = split ? raw.slice(split.index + split[0].length) : ''
  const headers = parseHeaders(headerBlock)
  const { type, params } = parseContentType(headers.get('content-type') ?? 'text/plain')
  const boundary = params.get('boundary')
  const parts =
    type.startsWith('multipart/') && boundary ? splitMultipart(body, boundary).map(parseEntity) : []
  return { headers, contentType: headers.get('content-type') ?? 'text/plain', body, parts }
}

const parseHeaders = (block: string): Map<string, string> => {
  const headers = new Map<string, string>()
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    if (!headers.has(name)) headers.set(name, decodeEncodedWords(line.slice(colon + 1).trim()))
  }
  return headers
}

const parseContentType = (value: string) => {
  const [type = '', ...rest] = value.split(';')
  const params = new Map<string, string>()
  for (const param of rest) {
    const eq = param.indexOf('=')
    if (eq > 0)
      params.set(
        param.slice(0, eq).trim().toLowerCase(),
        param
          .slice(eq + 1)
          .trim()
          .replace(/^"|"$/g, ''),
      )
  }
  return { type: type.trim().toLowerCase(), params }
}

const splitMultipart = (body: string, boundary: string): string[] => {
  const delimiter = `--${boundary}`
  const lines = body.split(/\r?\n/)
  const parts: string[] = []
  let current: string[] | null = null
  for (const line of lines) {
    if (line.trimEnd() === `${delimiter}--`) break
    if (line.trimEnd() === delimiter) {
      if (current) parts.push(current.join('\r\n'))
      current = []
    } else current?.push(line)
  }
  if (current) parts.push(current.join('\r\n'))
  return parts
}

/** The first non-attachment leaf of the given type, decoded to a string. */
const findPart = (entity: Entity, type: string): string => {
  if (entity.parts.length > 0) {
    for (const part of entity.parts) {
      const found = findPart(part, type)
      if (found !== '') return found
    }
    return ''
  }
  const { type: ownType, params } = parseContentType(entity.contentType)
  const attachment = (entity.headers.get('content-disposition') ?? '').toLowerCase().startsWith('attachment')
  if (ownType !== type || attachment) return ''
  const encoding = (entity.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase()
  return decodeCharset(decodeTransfer(entity.body, encoding), params.get('charset') ?? 'utf-8')
}

const decodeTransfer = (body: string, encoding: string): Buffer => {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64')
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body)
  return Buffer.from(body, 'latin1')
}

const decodeQuotedPrintable = (body: string): Buffer =>
  Buffer.from(
    body
      .replace(/[ \t]+(?=\r?\n)/g, '')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  )

const decodeCharset = (bytes: Buffer, charset: string): string =>
  new TextDecoder(charset.toLowerCase()).decode(bytes)

// `=?utf-8?Q?...?=` and `=?utf-8?B?...?=`; whitespace between two encoded words is not content.
const decodeEncodedWords = (value: string): string =>
  value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, kind: string, data: string) => {
      const bytes =
        kind.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64')
          : decodeQuotedPrintable(data.replace(/_/g, ' '))
      return decodeCharset(bytes, charset)
    })

/// Sends mail through a transactional mail provider's JSON API (Resend-style): one POST per mail,
/// authenticated by a bearer key, deduplicated by the provider through the Idempotency-Key header.

import { MailDeliveryError, type MailTransport, type OutgoingMail } from './mail.js'

export type HttpTransportOptions = {
  /** The provider's send endpoint, e.g. `https://api.resend.com/emails`. */
  url: string
  apiKey: string
  /** The From address, e.g. `Tessera <no-reply@example.com>`. */
  from: string
  /** Bounded so a hanging provider does not stall the mail reactor. Default 15 s. */
  timeoutMs?: number
}

export const createHttpTransport = (options: HttpTransportOptions): MailTransport => {
  const endpoint = new URL(options.url)
  if (endpoint.protocol !== 'https:' && endpoint.protocol !== 'http:')
    throw new Error('mail API URL must be http(s)')
  return {
    async send(mail: OutgoingMail) {
      const response = await post(endpoint, options, mail)
      if (response.ok) {
        // Drain the body so the connection can be reused.
        await response.arrayBuffer().catch(() => undefined)
        return
      }
      const detail = await response.text().catch(() => '')
      throw new MailDeliveryError(
        `mail API answered ${response.status} for ${mail.to}${detail ? `: ${detail.slice(0, 300)}` : ''}`,
        { retryable: isRetryableStatus(response.status) },
      )
    },
  }
}

const post = async (endpoint: URL, options: HttpTransportOptions, mail: OutgoingMail): Promise<Response> => {
  try {
    return await fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        'content-type': 'application/json',
        'idempotency-key': mail.idempotencyKey,
      },
      body: JSON.stringify({
        from: options.from,
        to: [mail.to],
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      redirect: 'error',
    })
  } catch (error) {
    // The request never got an answer (refused, reset, DNS, timeout): the provider may come back.
    throw new MailDeliveryError(`mail API request for ${mail.to} failed: ${describe(error)}`, {
      retryable: true,
      cause: error,
    })
  }
}

// 408 and 429 ask us to come back later; other 4xx say the request itself is wrong and will stay so.
const isRetryableStatus = (status: number): boolean => status >= 500 || status === 429 || status === 408

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  // fetch hides the socket error (ECONNREFUSED, …) in `cause`; it is the useful part.
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message
}

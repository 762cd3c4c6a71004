import { vi } from 'vitest'

/// A stand-in for the network at the browser's edge: components and RTK Query run for real, and
/// `fetch` answers from a table of routes. The real server is exercised by the end-to-end tests.

export type Call = {
  method: string
  /** Path under /api/auth, e.g. '/sign-in/email'. */
  path: string
  query: URLSearchParams
  body: unknown
  credentials: RequestCredentials
}

export type Reply = { status?: number; body?: unknown; headers?: Record<string, string> }

type Route = Reply | ((call: Call) => Reply | Promise<Reply>)

const readBody = async (request: Request): Promise<unknown> => {
  const text = await request.text()
  return text === '' ? undefined : JSON.parse(text)
}

/** Installs the stand-in; routes are keyed 'METHOD /path' (path without /api/auth). */
export const fakeApi = (routes: Record<string, Route>) => {
  const calls: Call[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init)
    const url = new URL(request.url)
    const call: Call = {
      method: request.method,
      path: url.pathname.replace(/^\/api\/auth/, ''),
      query: url.searchParams,
      body: await readBody(request),
      credentials: request.credentials,
    }
    calls.push(call)
    const route = routes[`${call.method} ${call.path}`]
    const reply =
      route === undefined ? { status: 404, body: { code: 'NOT_FOUND', message: 'Not Found' } } : route
    const {
      status = 200,
      body = null,
      headers = {},
    } = typeof reply === 'function' ? await reply(call) : reply
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    })
  }
  vi.stubGlobal('fetch', fetch)
  return {
    calls,
    to: (method: string, path: string) =>
      calls.filter((call) => call.method === method && call.path === path),
  }
}

/** A reply the test releases when it wants, to look at the page while a request is in flight. */
export const heldReply = (reply: Reply) => {
  let release: () => void = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  return {
    route: async (): Promise<Reply> => {
      await released
      return reply
    },
    release: () => release(),
  }
}

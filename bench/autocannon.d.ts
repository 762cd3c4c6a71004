/// The part of autocannon 9's programmatic API the benchmark uses (the package ships no types).

declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  namespace autocannon {
    type RequestParams = {
      method?: 'GET' | 'POST'
      path?: string
      headers?: Record<string, string>
      body?: string
    }

    type Context = Record<string, unknown>

    type Request = RequestParams & {
      /** Called for every request with a copy of the defaults; returns what to send. */
      setupRequest?: (request: RequestParams, context: Context) => RequestParams
      /** Called with each response, just before the instance's `response` event for it. */
      onResponse?: (status: number, body: string, context: Context, headers: Record<string, string>) => void
    }

    type Options = {
      url: string
      connections: number
      duration: number
      pipelining?: number
      timeout?: number
      requests?: Request[]
    }

    type Result = {
      duration: number
      errors: number
      timeouts: number
      non2xx: number
      resets: number
    }

    type Instance = EventEmitter & PromiseLike<Result> & { stop(): void }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance

  export = autocannon
}

import { cleanup, configure } from '@testing-library/react'
import { afterEach, vi } from 'vitest'

// jsdom has no fetch, so tests run on Node's; unlike a browser's, Node's Request does not resolve a
// relative URL ('/api/auth/...') against the page address. Resolve it the way the browser would.
const NodeRequest = globalThis.Request
globalThis.Request = class BrowserRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init)
  }
}

// Pages are lazy chunks (React.lazy): the first render of one in a run waits for its module to be
// transformed, which on a busy machine takes longer than Testing Library's default second.
configure({ asyncUtilTimeout: 4000 })

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

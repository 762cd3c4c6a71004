// oidc-provider ships no type declarations; the little the tests use of it.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  type Client = { grantTypeAllowed(type: string): boolean }
  type Account = { accountId: string; claims(): Promise<Record<string, unknown>> }
  export type ProviderConfiguration = {
    clients: Record<string, unknown>[]
    findAccount(ctx: unknown, sub: string): Promise<Account | undefined>
    claims: Record<string, string[]>
    features: Record<string, unknown>
    pkce: { required: () => boolean }
    issueRefreshToken: (ctx: unknown, client: Client) => Promise<boolean>
    ttl: Record<string, () => number>
    cookies: { keys: string[] }
  }
  export default class Provider {
    constructor(issuer: string, configuration: ProviderConfiguration)
    callback(): (request: IncomingMessage, response: ServerResponse) => void
    on(event: string, listener: (...args: never[]) => void): this
  }
}

/// The secret each server under test was started with, by its base URL, for scenarios that seed
/// straight into a server's database and must sign its cookies or seal what it would have sealed
/// (bench/factor-figures-totp.ts). Only the harness holds them; the servers never learn of this.

export type ServerKind = 'Tessera' | 'better-auth'

const secrets = new Map<string, { kind: ServerKind; secret: string }>()

/** Records the secret of the server that will listen on 127.0.0.1:`port`, and answers it. */
export const rememberSecret = (kind: ServerKind, port: number, secret: string): string => {
  secrets.set(`http://127.0.0.1:${port}`, { kind, secret })
  return secret
}

export const secretOf = (baseUrl: string): { kind: ServerKind; secret: string } => {
  const found = secrets.get(baseUrl)
  if (!found) throw new Error(`no secret recorded for ${baseUrl}`)
  return found
}

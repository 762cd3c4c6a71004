/// HMAC-SHA256, the one keyed hash Tessera uses (cookie signatures, derived identifiers).

import { createHmac } from 'node:crypto'

export type Secret = string | Uint8Array

export const hmacSha256 = (secret: Secret, data: string | Uint8Array): Buffer =>
  createHmac('sha256', secret).update(data).digest()

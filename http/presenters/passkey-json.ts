/// A passkey as better-auth's passkey plugin answers it (its `passkey` model's fields).

import { Type } from 'typebox'
import type { PasskeyRow } from '../../projections/passkeys/passkeys.table.js'

export const PasskeySchema = Type.Object({
  id: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  /** The COSE public key, base64. Not a secret: it only verifies signatures. */
  publicKey: Type.String(),
  userId: Type.String(),
  credentialID: Type.String(),
  counter: Type.Number(),
  deviceType: Type.String(),
  backedUp: Type.Boolean(),
  transports: Type.String(),
  createdAt: Type.String(),
  aaguid: Type.Union([Type.String(), Type.Null()]),
})

export const passkeyJson = (row: PasskeyRow) => ({
  id: row.id,
  name: row.name,
  publicKey: row.public_key,
  userId: row.user_id,
  credentialID: row.credential_id,
  counter: Number(row.counter),
  deviceType: row.device_type,
  backedUp: row.backed_up,
  transports: row.transports,
  createdAt: new Date(row.created_at).toISOString(),
  aaguid: row.aaguid,
})

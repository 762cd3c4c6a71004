import { request } from '../../app/http.js'

/// The second factor's requests (better-auth's /two-factor routes, and Tessera's status).

export type TwoFactorStatus = {
  enabled: boolean
  totp: boolean
  backupCodesLeft: number
  trustedDevices: number
}
export type CodeMethod = 'totp' | 'otp' | 'backup-code'

export const twoFactorStatus = () => request<TwoFactorStatus>('/two-factor/status')

export const enableTwoFactor = (password: string) =>
  request<{ method: 'totp'; totpURI: string; backupCodes: string[] }>('/two-factor/enable', {
    method: 'POST',
    body: { password },
  })

export const disableTwoFactor = (password: string) =>
  request<{ status: boolean }>('/two-factor/disable', { method: 'POST', body: { password } })

export const generateBackupCodes = (password: string) =>
  request<{ status: true; backupCodes: string[] }>('/two-factor/generate-backup-codes', {
    method: 'POST',
    body: { password },
  })

const VERIFY_PATH: Record<CodeMethod, string> = {
  totp: '/two-factor/verify-totp',
  otp: '/two-factor/verify-otp',
  'backup-code': '/two-factor/verify-backup-code',
}

/** `oauth_query`: the OpenID provider's signed request, when the sign-in began on its login page. */
export const verifyCode = (method: CodeMethod, code: string, trustDevice = false, oauth_query?: string) =>
  request<{ token?: string; redirect?: boolean; url?: string }>(VERIFY_PATH[method], {
    method: 'POST',
    body: { code, trustDevice, ...(oauth_query ? { oauth_query } : {}) },
  })

export const sendCode = () =>
  request<{ status: boolean }>('/two-factor/send-otp', { method: 'POST', body: {} })

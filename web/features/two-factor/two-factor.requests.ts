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

export const verifyCode = (method: CodeMethod, code: string, trustDevice = false) =>
  request<{ token?: string }>(VERIFY_PATH[method], { method: 'POST', body: { code, trustDevice } })

export const sendCode = () =>
  request<{ status: boolean }>('/two-factor/send-otp', { method: 'POST', body: {} })

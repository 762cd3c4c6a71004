/// The server's limits on what people type (its request schemas), enforced in the forms with
/// maxLength and told in the hints, so nobody meets them as a rejected request.
export { PASSWORD_MAX } from '../password/password-rules.js'

export const NAME_MAX = 256
export const EMAIL_MAX = 320
export const IMAGE_URL_MAX = 2048

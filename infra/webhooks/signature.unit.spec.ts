/// The signature header is the one Standard Webhooks' own example gives, for one secret and during a
/// rotation, and stays so when the same secret signs again (its key is kept between deliveries).

import { describe, expect, it } from 'vitest'
import { signatureHeader } from './signature.js'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek'
const BODY = '{"test": 2432232314}'
const EXPECTED = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='

describe('Standard Webhooks signature', () => {
  it("matches the specification's example, every time the secret signs", () => {
    expect(signatureHeader([SECRET], ID, 1614265330, BODY)).toBe(EXPECTED)
    expect(signatureHeader([SECRET], ID, 1614265330, BODY)).toBe(EXPECTED)
    expect(signatureHeader([SECRET], ID, 1614265331, BODY)).not.toBe(EXPECTED)
  })

  it('signs with every secret during a rotation, space separated, each with its own key', () => {
    const other = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
    const both = signatureHeader([other, SECRET], ID, 1614265330, BODY).split(' ')
    expect(both).toHaveLength(2)
    expect(both[1]).toBe(EXPECTED)
    expect(both[0]).not.toBe(EXPECTED)
    expect(signatureHeader([other], ID, 1614265330, BODY)).toBe(both[0])
  })
})

/// Compares two hex digests in time that depends only on their length, not on where they first
/// differ: a guessed code's hash against the stored one. Plain code, since the domain imports no
/// package (node:crypto's timingSafeEqual included).

export const sameHash = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index)
  return difference === 0
}

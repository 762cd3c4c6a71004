/// Comparing secrets (or their hashes) in time that does not depend on where they differ, without
/// node:crypto (the domain imports no package): every character is looked at, whatever it finds.

export const constantTimeEqual = (a: string, b: string): boolean => {
  let difference = a.length ^ b.length
  for (let i = 0; i < b.length; i++) difference |= a.charCodeAt(i % Math.max(a.length, 1)) ^ b.charCodeAt(i)
  return difference === 0
}

/**
 * Whether any candidate equals `stored`: one candidate per accepted secret (a code hashed under
 * AUTH_SECRET and under each previous one). Every candidate is compared, so the time does not say
 * which secret, if any, made the stored hash.
 */
export const constantTimeIncludes = (candidates: readonly string[], stored: string): boolean => {
  let found = false
  for (const candidate of candidates) found = constantTimeEqual(candidate, stored) || found
  return found
}

/// Percent-decoding for security checks, where `decodeURIComponent` does not fit: it throws on a
/// malformed escape (`%zz`, a lone `%E0`) that an attacker controls, and we still need an answer.

/** Decodes every `%XX` escape byte-wise (bytes above 0x7f become Latin-1 characters). */
export const percentDecode = (value: string): string =>
  value.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))

/// SERVER_KEYS: the application backends allowed to call the server API, as `name=key,…`.

import { ConfigError } from './config-error.js'

export type ServerKey = { name: string; key: string }

const SERVER_KEY_NAME = /^[A-Za-z0-9_-]{1,64}$/
const MIN_SERVER_KEY_LENGTH = 32

// Keys are secrets: a bad entry is named by its position and name, never echoed.
export const parseServerKeys = (value: string | undefined): ServerKey[] => {
  if (value === undefined) return []
  const keys: ServerKey[] = []
  const entries = value.split(',').map((entry) => entry.trim())
  entries.forEach((entry, index) => {
    const separator = entry.indexOf('=')
    const name = separator === -1 ? '' : entry.slice(0, separator).trim()
    const key = separator === -1 ? '' : entry.slice(separator + 1).trim()
    const where = `SERVER_KEYS entry ${index + 1}`
    if (!SERVER_KEY_NAME.test(name))
      throw new ConfigError(
        'SERVER_KEYS',
        `${where} must be name=key, the name 1 to 64 letters, digits, "_" or "-"`,
      )
    if (key.length < MIN_SERVER_KEY_LENGTH || /\s/.test(key))
      throw new ConfigError(
        'SERVER_KEYS',
        `${where} ("${name}"): the key must be at least ${MIN_SERVER_KEY_LENGTH} characters without spaces`,
      )
    if (keys.some((known) => known.name === name))
      throw new ConfigError('SERVER_KEYS', `${where}: the name "${name}" is used twice`)
    if (keys.some((known) => known.key === key))
      throw new ConfigError('SERVER_KEYS', `${where} ("${name}"): the key is the same as another entry's`)
    keys.push({ name, key })
  })
  return keys
}

/// Small helpers the scenario modules share to build requests and check answers.

export const JSON_HEADERS = { 'content-type': 'application/json' }

/** The JSON in a body, or undefined for anything else. */
export const parse = (body: string): unknown => {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

/** Hands out the items in turn, round and round. */
export const rotate = <T>(items: readonly T[]) => {
  let index = 0
  return (): T => {
    const item = items[index % items.length]
    if (item === undefined) throw new Error('nothing to rotate over')
    index += 1
    return item
  }
}

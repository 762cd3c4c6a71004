import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { romixWasmModule, romixWasmSource } from '../../../scripts/romix-wasm-source.mjs'

describe('the committed ROMix module', () => {
  it('is romix.as.ts compiled (run `npm run build:romix` after changing it)', async () => {
    const committed = readFileSync(new URL('./romix-wasm.ts', import.meta.url), 'utf8')
    expect(committed).toBe(romixWasmSource(await romixWasmModule()))
  }, 60_000)
})

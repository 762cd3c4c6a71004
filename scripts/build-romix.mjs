// Compiles scrypt's ROMix (infra/crypto/scrypt/romix.as.ts, AssemblyScript) to WebAssembly and
// writes it, base64, into romix-wasm.ts. The module is committed, so neither the service nor its
// tests need the compiler; `npm run build:romix` after changing the source, and
// romix-wasm.unit.spec.ts fails until the two agree.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { romixWasmModule, romixWasmSource } from './romix-wasm-source.mjs'

const target = fileURLToPath(new URL('../infra/crypto/scrypt/romix-wasm.ts', import.meta.url))
writeFileSync(target, romixWasmSource(await romixWasmModule()))
console.log(`wrote ${target}`)

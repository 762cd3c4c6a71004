/** The compiled module's bytes (romix.as.ts through the AssemblyScript compiler). */
export declare const romixWasmModule: () => Promise<Buffer>
/** The text of romix-wasm.ts for these bytes. */
export declare const romixWasmSource: (wasm: Uint8Array) => string

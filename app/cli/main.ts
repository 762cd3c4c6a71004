/// The `tessera` command's entry point; the commands are in commands.ts.
///
/// For `serve`, V8's young generation is held at its start-up size while the modules load, and
/// grows to its cap once the server runs (heap-growth.ts). Loading the modules runs as one piece of
/// synchronous code, which would otherwise grow it to V8's maximum before any limit could act.

import { holdYoungGenerationWhileLoading } from './heap-growth.js'

if (process.argv[2] === 'serve') holdYoungGenerationWhileLoading()
await import('./commands.js')

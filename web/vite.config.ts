import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const webDir = fileURLToPath(new URL('.', import.meta.url))

// The portal's build and dev server. Vitest extends this file from the repository root, where its
// include globs are written relative to that root, so the web root only applies outside tests.
export default defineConfig(({ mode }) => ({
  root: mode === 'test' ? undefined : webDir,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    rolldownOptions: {
      output: {
        // Content hashes in every asset name let the server cache /assets/* for a year.
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
}))

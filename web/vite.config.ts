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
        // Pages are loaded on demand (React.lazy in app/App.tsx); the libraries every page needs
        // get stable chunks of their own, cached across deployments that only change our code.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            {
              name: 'redux',
              test: /node_modules[\\/](@reduxjs|immer|redux|redux-thunk|reselect|react-redux|use-sync-external-store|@standard-schema)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
}))

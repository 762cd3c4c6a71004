/// The project's import graph, read from the sources as text: every file's static, dynamic and
/// re-export specifiers, resolved to the file or package they name. Small on purpose: the layer
/// rules in `layers.ts` need only "which file imports which".

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

export type Import = { from: string; to: string; kind: 'file' | 'package' }

const SOURCE = /\.(ts|tsx|mjs|js)$/
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'data', 'test-artifacts', '.git', 'results'])
const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

const sourcesUnder = (root: string, dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sourcesUnder(root, path)
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })

/**
 * Strips comments so that an import written in a comment or doc example does not count. Line
 * comments go first: a `/*` inside one (`/// POST /two-factor/*`) would otherwise open a block that
 * swallows the imports below it.
 */
const withoutComments = (text: string): string =>
  text.replace(/(^|[^:'"`])\/\/.*$/gm, '$1').replace(/\/\*[\s\S]*?\*\//g, '')

/** A package's name from a bare specifier: `@scope/name/sub` → `@scope/name`, `node:fs` → `node:fs`. */
const packageOf = (specifier: string): string => {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier)
}

export const importsOf = (root: string, file: string, text: string): Import[] =>
  [...withoutComments(text).matchAll(SPECIFIER)].map((match) => {
    const specifier = match[1] ?? match[2] ?? ''
    if (!specifier.startsWith('.')) return { from: file, to: packageOf(specifier), kind: 'package' }
    const target = resolve(root, dirname(file), specifier).replace(/\.js$/, '.ts')
    const tsx = `${target}x`
    return { from: file, to: relative(root, existsSync(tsx) ? tsx : target), kind: 'file' }
  })

export const readImportGraph = (root: string, dirs: readonly string[]): Import[] =>
  dirs.flatMap((dir) =>
    sourcesUnder(root, dir).flatMap((file) => importsOf(root, file, readFileSync(join(root, file), 'utf8'))),
  )

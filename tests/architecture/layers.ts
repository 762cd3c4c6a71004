/// DESIGN.md's "may import" table as rules over the import graph (see docs/architecture.md):
///
///   domain      ← nothing
///   infra       ← domain
///   projections ← domain, infra
///   http        ← domain, infra, projections        (sessions, guards, presenters, codecs)
///   command-api ← domain, infra, http               (projections only for the files listed in
///                                                    command-api-read-model-readers.ts)
///   query-api   ← domain, infra, http, projections
///   app         ← all (the composition root; nobody imports it)
///
/// command-api and query-api are siblings: neither imports the other. `domain/` imports no
/// package at all. No production file imports a test helper, and the portal (`web/`) talks to the
/// server over HTTP only, so neither side imports the other.

import { COMMAND_API_READ_MODEL_READERS } from './command-api-read-model-readers.js'
import type { Import } from './import-graph.js'

const LAYERS = ['app', 'command-api', 'query-api', 'http', 'projections', 'infra', 'domain'] as const
type Layer = (typeof LAYERS)[number]

const MAY_IMPORT: Record<Exclude<Layer, 'app'>, readonly Layer[]> = {
  domain: [],
  infra: ['domain'],
  projections: ['domain', 'infra'],
  http: ['domain', 'infra', 'projections'],
  // Read models reach commands only as ports on their context (http/ports/command-lookups.ts); the
  // files that still import projections/ are named in command-api-read-model-readers.ts.
  'command-api': ['domain', 'infra', 'http'],
  'query-api': ['domain', 'infra', 'http', 'projections'],
}

const topFolder = (path: string): string => path.split('/')[0] ?? ''
const layerOf = (path: string): Layer | null => LAYERS.find((layer) => layer === topFolder(path)) ?? null

/** Tests and their helpers: specs, contract suites run by specs, fixtures, `tests/` and `web/test/`. */
export const isTestFile = (path: string): boolean =>
  topFolder(path) === 'tests' ||
  path.startsWith('web/test/') ||
  /\.(spec|contract|contract-support|fixture)\.tsx?$/.test(path)

const TEST_PACKAGES = new Set(['vitest', '@testing-library/react', '@testing-library/dom', 'jsdom'])

export type Violation = { from: string; to: string; rule: string }

const layerRule = (edge: Import): string | null => {
  const from = layerOf(edge.from)
  if (!from) return null
  if (edge.kind === 'package')
    return from === 'domain' && !isTestFile(edge.from) ? 'domain/ imports no package' : null
  const to = layerOf(edge.to)
  if (to === null) return null
  if (to === 'app' && from !== 'app') return 'only the composition root imports app/'
  if (from === 'app' || from === to) return null
  if (MAY_IMPORT[from].includes(to)) return null
  const listed =
    from === 'command-api' && to === 'projections' && COMMAND_API_READ_MODEL_READERS.has(edge.from)
  return listed ? null : `${from}/ may not import ${to}/`
}

const testHelperRule = (edge: Import): string | null => {
  if (isTestFile(edge.from)) return null
  if (edge.kind === 'package')
    return TEST_PACKAGES.has(edge.to) ? 'production code imports a test library' : null
  return isTestFile(edge.to) ? 'production code imports a test helper' : null
}

const portalRule = (edge: Import): string | null => {
  if (edge.kind === 'package') return null
  const fromWeb = topFolder(edge.from) === 'web'
  const toWeb = topFolder(edge.to) === 'web'
  if (fromWeb && !toWeb) return 'web/ reaches the server over HTTP only'
  if (!fromWeb && toWeb) return 'nothing imports web/'
  return null
}

export const violationsOf = (graph: readonly Import[]): Violation[] =>
  graph.flatMap((edge) =>
    [layerRule(edge), testHelperRule(edge), portalRule(edge)]
      .filter((rule): rule is string => rule !== null)
      .map((rule) => ({ from: edge.from, to: edge.to, rule })),
  )

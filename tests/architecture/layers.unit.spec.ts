import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { COMMAND_API_READ_MODEL_READERS } from './command-api-read-model-readers.js'
import { importCirclesOf } from './import-circles.js'
import { type Import, importsOf, readImportGraph } from './import-graph.js'
import { violationsOf } from './layers.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const SOURCE_DIRS = [
  'app',
  'domain',
  'command-api',
  'query-api',
  'http',
  'projections',
  'infra',
  'web',
  'bench',
  'tests',
]

const edge = (from: string, to: string, kind: Import['kind'] = 'file'): Import => ({ from, to, kind })

describe('the layer rules', () => {
  it('hold for every import in the repository', () => {
    const graph = readImportGraph(root, SOURCE_DIRS)
    // The reader found the graph: a broken pattern would make every rule pass vacuously.
    expect(graph.length).toBeGreaterThan(500)
    expect(graph).toContainEqual(edge('app/server/app.ts', 'command-api/account/account.routes.ts'))
    expect(violationsOf(graph)).toEqual([])
  })

  it.each([
    ['infra/http/x.ts', 'command-api/context.ts', 'infra/ may not import command-api/'],
    ['infra/db/database.ts', 'projections/database.ts', 'infra/ may not import projections/'],
    [
      'query-api/sessions/x.ts',
      'command-api/sessions/refresh-session.ts',
      'query-api/ may not import command-api/',
    ],
    ['projections/users/x.ts', 'query-api/context.ts', 'projections/ may not import query-api/'],
    ['projections/users/x.ts', 'http/sessions/require-session.ts', 'projections/ may not import http/'],
    ['command-api/x.ts', 'query-api/context.ts', 'command-api/ may not import query-api/'],
    [
      'command-api/account/x.ts',
      'projections/users/users.repository.ts',
      'command-api/ may not import projections/',
    ],
    ['http/guards/x.ts', 'query-api/context.ts', 'http/ may not import query-api/'],
    ['http/guards/x.ts', 'command-api/context.ts', 'http/ may not import command-api/'],
    ['domain/user/user.ts', 'infra/crypto/tokens.ts', 'domain/ may not import infra/'],
    ['command-api/context.ts', 'app/server/context.ts', 'only the composition root imports app/'],
    ['command-api/x.ts', 'tests/support/tessera.ts', 'production code imports a test helper'],
    ['infra/x.ts', 'infra/event-store/event-store.contract.ts', 'production code imports a test helper'],
    ['web/app/App.tsx', 'domain/errors.ts', 'web/ reaches the server over HTTP only'],
    ['tests/http/x.spec.ts', 'web/app/App.tsx', 'nothing imports web/'],
  ])('refuses %s → %s', (from, to, rule) => {
    expect(violationsOf([edge(from, to)])).toContainEqual({ from, to, rule })
  })

  it('refuses packages in domain/ and test libraries in production code', () => {
    expect(violationsOf([edge('domain/user/user.ts', 'node:crypto', 'package')])).toHaveLength(1)
    expect(violationsOf([edge('domain/user/user.unit.spec.ts', 'vitest', 'package')])).toEqual([])
    expect(violationsOf([edge('projections/x.ts', 'vitest', 'package')])).toEqual([
      { from: 'projections/x.ts', to: 'vitest', rule: 'production code imports a test library' },
    ])
  })

  it('allows the layers downwards and the composition root everything', () => {
    const allowed = [
      edge('command-api/x.ts', 'http/sessions/require-session.ts'),
      edge('query-api/x.ts', 'projections/sessions/sessions.repository.ts'),
      edge('query-api/x.ts', 'http/presenters/presenters.ts'),
      edge('http/sessions/x.ts', 'projections/sessions/sessions.repository.ts'),
      edge('projections/x.ts', 'infra/event-store/event-store.ts'),
      edge('infra/x.ts', 'domain/errors.ts'),
      edge('app/server/app.ts', 'command-api/context.ts'),
      edge('tests/http/x.spec.ts', 'app/server/tessera.ts'),
    ]
    expect(violationsOf(allowed)).toEqual([])
  })

  it('reads static, type-only, re-exported and dynamic imports, and ignores comments', () => {
    const text = [
      "import { a } from './a.js'",
      "import type { B } from '../b/b.js'",
      "export { c } from './c.js'",
      "const d = await import('./d.js')",
      "import 'node:fs'",
      "// import { e } from './e.js'",
      "import { f } from '@scope/pkg/sub'",
    ].join('\n')
    expect(importsOf('/r', 'x/y/file.ts', text).map((found) => found.to)).toEqual([
      'x/y/a.ts',
      'x/b/b.ts',
      'x/y/c.ts',
      'x/y/d.ts',
      'node:fs',
      '@scope/pkg',
    ])
  })
})

describe('the import reader and comments', () => {
  it('reads the imports below a line comment that holds a block opener', () => {
    const text = ["/// POST /two-factor/* (the plugin's routes)", "import { a } from './a.js'"].join('\n')
    expect(importsOf('/r', 'x/file.ts', text).map((found) => found.to)).toEqual(['x/a.ts'])
  })
})

describe('command-api and the read models', () => {
  it('lets only the named files import projections/, and names only files that still do', () => {
    const graph = readImportGraph(root, SOURCE_DIRS)
    const readers = new Set(
      graph
        .filter((found) => found.from.startsWith('command-api/') && found.to.startsWith('projections/'))
        .map((found) => found.from),
    )
    // A file that moved behind a port leaves the list, so the list can only shrink.
    const stale = [...COMMAND_API_READ_MODEL_READERS].filter((file) => !readers.has(file))
    expect(stale).toEqual([])
    expect([...readers].filter((file) => !COMMAND_API_READ_MODEL_READERS.has(file))).toEqual([])
  })

  it('allows a listed file, and no other, to import projections/', () => {
    const [listed] = [...COMMAND_API_READ_MODEL_READERS]
    expect(violationsOf([edge(listed ?? '', 'projections/users/users.repository.ts')])).toEqual([])
    expect(
      violationsOf([edge('command-api/account/credentials.ts', 'projections/users/users.table.ts')]),
    ).toHaveLength(1)
  })
})

describe('import circles', () => {
  it('none among production files', () => {
    expect(importCirclesOf(readImportGraph(root, SOURCE_DIRS))).toEqual([])
  })

  it('finds a circle through any number of files, and ignores tests', () => {
    const graph = [
      edge('domain/a.ts', 'domain/b.ts'),
      edge('domain/b.ts', 'domain/c.ts'),
      edge('domain/c.ts', 'domain/a.ts'),
      edge('domain/c.ts', 'domain/d.ts'),
      edge('domain/d.unit.spec.ts', 'domain/d.ts'),
      edge('domain/d.ts', 'domain/d.unit.spec.ts'),
    ]
    expect(importCirclesOf(graph)).toEqual([['domain/a.ts', 'domain/b.ts', 'domain/c.ts']])
  })
})

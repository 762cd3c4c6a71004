/// Import circles among production files. A circle, even through one type-only edge, means two
/// modules can only be understood together; the fix is nearly always to move the shared type to
/// a module both import. Tarjan's strongly connected components over the file graph: every
/// component with more than one file (or a file importing itself) is a circle.

import type { Import } from './import-graph.js'
import { isTestFile } from './layers.js'

const productionEdges = (graph: readonly Import[]): Map<string, string[]> => {
  const next = new Map<string, string[]>()
  for (const edge of graph) {
    if (edge.kind !== 'file' || isTestFile(edge.from) || isTestFile(edge.to)) continue
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to])
  }
  return next
}

/** Each circle as its files, sorted, so that a failure message is stable and readable. */
export const importCirclesOf = (graph: readonly Import[]): string[][] => {
  const next = productionEdges(graph)
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const circles: string[][] = []
  const visit = (file: string): void => {
    index.set(file, index.size)
    low.set(file, index.get(file) as number)
    stack.push(file)
    onStack.add(file)
    for (const target of next.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number))
      } else if (onStack.has(target))
        low.set(file, Math.min(low.get(file) as number, index.get(target) as number))
    }
    if (low.get(file) !== index.get(file)) return
    const component: string[] = []
    let member: string | undefined
    do {
      member = stack.pop() as string
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    const selfImport = (next.get(file) ?? []).includes(file)
    if (component.length > 1 || selfImport) circles.push(component.sort())
  }
  for (const file of next.keys()) if (!index.has(file)) visit(file)
  return circles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''))
}

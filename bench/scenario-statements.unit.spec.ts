import { expect, test } from 'vitest'
import { formatStatements } from './scenario-statements.js'

const columns =
  'select seq::text as seq, tx_id::text as tx_id, event_id::text as event_id, stream_id, stream_version, type, data, metadata, recorded_at'

test('the event store reads that share their columns are told apart by their FROM', () => {
  const [, streamRead, logRead] = formatStatements(
    [
      {
        calls: 10,
        rows: 140,
        ms: 108,
        buffers: 200,
        query: `${columns}, r.i::integer as read\n  from unnest($1::text[], $2::integer[]) with ordinality as r(wanted, after_version, i) join tessera_events on …`,
      },
      {
        calls: 5,
        rows: 200,
        ms: 3,
        buffers: 75,
        query: `${columns} from tessera_events where (tx_id, seq) > ($1::xid8, $2::bigint) order by tx_id, seq limit $3`,
      },
    ],
    20,
  )
  expect(streamRead).toContain('from unnest(')
  expect(logRead).toContain('from tessera_events where')
  expect(streamRead).toMatch(/^\s+108\s+10\s+14\.0\s+10\.800\s+20\s/)
})

test('the totals are per answer served in the window', () => {
  const [totals] = formatStatements(
    [
      { calls: 30, rows: 30, ms: 12, buffers: 90, query: 'select 1' },
      { calls: 10, rows: 10, ms: 8, buffers: 10, query: 'select 2' },
    ],
    20,
  )
  expect(totals).toContain('40 (2.00 per answer), 20 ms of execution (1.00 ms per answer)')
})

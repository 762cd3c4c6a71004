import { PGlite } from '@electric-sql/pglite'
const t0=Date.now()
const pg = await PGlite.create()
console.log('create ms', Date.now()-t0)
console.log((await pg.query('select version(), pg_current_xact_id()::text as x, pg_snapshot_xmin(pg_current_snapshot())::text as m')).rows)
const t1=Date.now(); const c = await pg.clone(); console.log('clone ms', Date.now()-t1, typeof c.query)
await pg.exec('create table t(a int)')
const t2=Date.now(); const c2 = await pg.clone(); console.log('clone ms', Date.now()-t2, (await c2.query('select count(*) from t')).rows)

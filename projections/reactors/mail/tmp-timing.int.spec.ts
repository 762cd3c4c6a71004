import { it } from 'vitest'
import { freshPglite } from '../../../tests/support/databases.js'
it('times', async () => {
  let t = Date.now()
  const a = await freshPglite(); console.log('first', Date.now() - t); t = Date.now()
  const b = await freshPglite(); console.log('clone', Date.now() - t); t = Date.now()
  await a.close(); await b.close(); console.log('close', Date.now() - t)
})

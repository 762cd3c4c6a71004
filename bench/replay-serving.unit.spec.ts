import { expect, test } from 'vitest'
import { type ServingFigures, servingShareOfDatabase } from './replay-serving.js'

const during: ServingFigures = {
  requests: 4_000,
  seconds: 8,
  perSecond: 500,
  p50Ms: 10,
  p99Ms: 40,
  wrong: 0,
  firstWrong: null,
}

test("a catch-up's database CPU tells serving's part: answers at their rate over the step, at their quiet cost", () => {
  // 0.4 ms an answer, 500 answers a second for the step's 6 s: 1,200 ms over 10,000 events.
  const share = servingShareOfDatabase({ databaseCpuMsPerAnswer: 0.4 }, during, {
    events: 10_000,
    processSeconds: 6,
  })
  expect(share).toBe(120)
})

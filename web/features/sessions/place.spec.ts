import { describe, expect, it } from 'vitest'
import { placeName } from './place.js'

describe('the name of a place', () => {
  it('names the city and the country, the country from its ISO code', () => {
    expect(placeName({ country: 'DE', city: 'Berlin' })).toBe('Berlin, Germany')
    expect(placeName({ country: 'us', city: null })).toBe('United States')
    expect(placeName({ country: null, city: 'São Paulo' })).toBe('São Paulo')
  })

  it('says nothing when the place is unknown, or the code names no country', () => {
    expect(placeName({})).toBeNull()
    expect(placeName({ country: null, city: '' })).toBeNull()
    expect(placeName({ country: 'XX' })).toBeNull()
    expect(placeName({ country: 'not a code' })).toBeNull()
  })
})

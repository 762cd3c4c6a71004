import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { formatTime, relativeTime } from '../app/time.js'
import { Time } from './Time.js'

const NOW = Date.parse('2026-03-05T12:00:00.000Z')

describe('times', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] })
    vi.setSystemTime(NOW)
  })
  afterEach(() => vi.useRealTimers())

  it('reads recent and near moments relatively, within a week either way', () => {
    expect(relativeTime('2026-03-05T11:57:00.000Z', NOW)).toBe('3 minutes ago')
    expect(relativeTime('2026-03-05T11:59:50.000Z', NOW)).toBe('now')
    expect(relativeTime('2026-03-05T09:00:00.000Z', NOW)).toBe('3 hours ago')
    expect(relativeTime('2026-03-04T12:00:00.000Z', NOW)).toBe('yesterday')
    expect(relativeTime('2026-03-07T12:00:00.000Z', NOW)).toBe('in 2 days')
    expect(relativeTime('2026-02-20T12:00:00.000Z', NOW)).toBeNull()
    expect(relativeTime('not a date', NOW)).toBeNull()
  })

  it('names the time zone in the exact time', () => {
    // Vitest runs in UTC unless TZ says otherwise: the zone is named either way.
    expect(formatTime('2026-03-05T11:57:00.000Z')).toMatch(/\b(UTC|GMT|[A-Z]{2,5}|GMT[+-]\d+)$/)
    expect(formatTime('garbage')).toBe('garbage')
  })

  it('shows a recent time in words, the exact one on hover and to screen readers', () => {
    render(<Time value="2026-03-05T11:57:00.000Z" />)
    const time = screen.getByText('3 minutes ago', { exact: false })
    expect(time.tagName).toBe('TIME')
    expect(time.getAttribute('dateTime')).toBe('2026-03-05T11:57:00.000Z')
    const exact = formatTime('2026-03-05T11:57:00.000Z')
    expect(time.getAttribute('title')).toBe(exact)
    expect(time.querySelector('.visually-hidden')?.textContent).toBe(` (${exact})`)
  })

  it('shows an older time exactly, and moves on as the clock does', () => {
    const { unmount } = render(<Time value="2026-01-05T12:00:00.000Z" />)
    expect(screen.getByText(formatTime('2026-01-05T12:00:00.000Z')).getAttribute('title')).toBeNull()
    unmount()
    render(<Time value="2026-03-05T11:59:40.000Z" />)
    expect(screen.getByText('now', { exact: false })).toBeTruthy()
    act(() => vi.advanceTimersByTime(90_000))
    expect(screen.getByText('2 minutes ago', { exact: false })).toBeTruthy()
  })
})

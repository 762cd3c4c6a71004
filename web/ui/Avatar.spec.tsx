import { fireEvent, render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Avatar } from './Avatar.js'

describe('Avatar', () => {
  it('falls back to the initial when the picture does not load', () => {
    const { container } = render(
      <Avatar
        user={{ name: 'Ada Lovelace', email: 'ada@example.com', image: 'https://example.com/gone.png' }}
      />,
    )
    const image = container.querySelector('img')
    if (!image) throw new Error('expected the picture first')
    fireEvent.error(image)
    expect(container.querySelector('img')).toBeNull()
    expect(container.textContent).toBe('A')
  })
})

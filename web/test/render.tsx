import { render } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import type { ReactElement } from 'react'
import { Provider } from 'react-redux'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router'
import { type AppStore, makeStore } from '../app/store.js'

/** Stands in for every other page: shows where the app navigated to, and with what state. */
const LocationProbe = () => {
  const location = useLocation()
  return (
    <output data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {`${location.pathname}${location.search}`}
    </output>
  )
}

type Options = {
  /** The address the page is opened at (path and query). */
  route?: string
  /** The route pattern `ui` is mounted on; any other address renders the location probe. */
  path?: string
  /** History state the page is opened with (what another page would have passed). */
  state?: unknown
  store?: AppStore
}

export const renderWithProviders = (ui: ReactElement, options: Options = {}) => {
  const { route = '/', state, store = makeStore() } = options
  const [pathname = '/', query] = route.split('?')
  const path = options.path ?? pathname
  const user = userEvent.setup()
  const result = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[{ pathname, search: query ? `?${query}` : '', state }]}>
        <Routes>
          <Route path={path} element={ui} />
          <Route path="*" element={<LocationProbe />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  )
  return { store, user, ...result }
}

/** The text a field's hint and error give it (what a screen reader reads after the label). */
export const descriptionOf = (element: HTMLElement): string =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')

import './ui/index.css'
import { setupListeners } from '@reduxjs/toolkit/query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { Provider } from 'react-redux'
import { BrowserRouter } from 'react-router'
import { App } from './app/App.js'
import { makeStore } from './app/store.js'

const store = makeStore()
// Enables refetchOnFocus / refetchOnReconnect: a device signed out elsewhere notices on return.
setupListeners(store.dispatch)

const container = document.getElementById('root')
if (container === null) throw new Error('index.html has no #root element')

createRoot(container).render(
  <StrictMode>
    <Provider store={store}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </Provider>
  </StrictMode>,
)

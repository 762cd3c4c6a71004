import './ui/index.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import { App } from './app/App.js'
import { loadBranding } from './ui/branding.js'

const container = document.getElementById('root')
if (container === null) throw new Error('index.html has no #root element')

void loadBranding()

// No store here: the routes that need one load it (app/StoreBoundary.tsx).
createRoot(container).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
)

import { createOpenClient } from '@service-sdk/open'
import { OpenClientProvider } from '@service-sdk/react'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'
import './styles.css'

// No token in the browser: the client talks to the upload proxy on this page's own server,
// which adds the token. The bytes go from the browser straight to the object store.
const open = createOpenClient({ proxyUrl: '/api/upload' })

// The server says where the folder selector is (and starts this browser's session).
const { appUrl } = (await (await fetch('/api/config')).json()) as { appUrl: string }

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <OpenClientProvider client={open}>
      <App appUrl={appUrl} />
    </OpenClientProvider>
  </StrictMode>,
)

/**
 * The page of test/browser.test.ts, built with Vite and @vitejs/plugin-react the way an
 * application is (the packages' built files, through their `browser` conditions), in React's
 * development build and under StrictMode, so effects run twice on mount as they do in development.
 * `?appUrl=` is the simulator's selector app, `?proxyUrl=` the upload proxy (another origin).
 */
import { createOpenClient } from '@service-sdk/open'
import { OpenClientProvider } from '@service-sdk/react'
import { StrictMode, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { PickerPanel } from './picker-panel.tsx'
import { SingleUploadPanel } from './single-upload-panel.tsx'
import { UploadsPanel } from './uploads-panel.tsx'
import type {} from './window.ts'

const params = new URLSearchParams(location.search)
const appUrl = params.get('appUrl') ?? ''
const client = createOpenClient({
  proxyUrl: params.get('proxyUrl') ?? '',
  headers: { Authorization: 'Bearer alice-session' },
  uploads: {
    partSize: 100 * 1024,
    parallel: 2,
    retry: { maxRetries: 1, initialDelayMs: 10, maxDelayMs: 20 },
  },
})

// Set here, not in window.ts: the package's `sideEffects: false` covers this page too.
window.framesCreated = 0
window.effectRuns = 0

// Every iframe ever added to the page, so a test can tell that StrictMode opened one page, not two.
new MutationObserver((records) => {
  for (const record of records)
    for (const node of record.addedNodes) {
      if (node instanceof HTMLIFrameElement) window.framesCreated++
      else if (node instanceof Element) window.framesCreated += node.querySelectorAll('iframe').length
    }
}).observe(document.body, { childList: true, subtree: true })

function App() {
  const [uploads, setUploads] = useState(true)
  window.setUploadsMounted = setUploads
  return (
    <OpenClientProvider client={client}>
      <PickerPanel appUrl={appUrl} />
      {uploads && <UploadsPanel />}
      <SingleUploadPanel />
    </OpenClientProvider>
  )
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
)

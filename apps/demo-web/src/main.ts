import './styles.css'
import { ApiRequestError, api } from './api/client.ts'
import type { DemoInfo, Space } from './api/types.ts'
import type { Page, PageContext } from './context.ts'
import { h, render } from './dom.ts'
import { connectLive, type Live } from './live.ts'
import { eventsPage } from './pages/events.ts'
import { overviewPage } from './pages/overview.ts'
import { spacesPage } from './pages/spaces.ts'
import { teamPage } from './pages/team.ts'
import { uploadPage } from './pages/upload.ts'
import { renderShell, type Shell } from './shell.ts'

const PAGES: Page[] = [overviewPage, teamPage, uploadPage, spacesPage, eventsPage]

async function boot(root: HTMLElement) {
  let info: DemoInfo
  try {
    info = await api.config()
  } catch (error) {
    render(
      root,
      h(
        'main',
        { class: 'boot-error', id: 'main' },
        h('h1', null, 'The demo server is not answering'),
        h('p', null, error instanceof ApiRequestError ? error.message : String(error)),
        h(
          'button',
          { class: 'btn btn-primary', type: 'button', onclick: () => location.reload() },
          'Try again',
        ),
      ),
    )
    return
  }
  const live = connectLive()
  const shell = renderShell(root, PAGES, eventsPage, info, live)
  route(shell, contextOf(info, live), live)
}

function contextOf(info: DemoInfo, live: Live): PageContext {
  let spaces: Promise<Space[]> | undefined
  return {
    info,
    live,
    spaces: () => {
      spaces ??= api.spaces().then(
        (r) => r.spaces,
        (error) => {
          spaces = undefined
          throw error
        },
      )
      return spaces
    },
    navigate: (path) => {
      location.hash = `#${path}`
    },
  }
}

/** Shows the page of the URL's hash, and counts the events that arrive while another page is shown. */
function route(shell: Shell, context: PageContext, live: Live): void {
  let unreadCount = 0
  let current: Page | undefined
  let stop: (() => void) | undefined
  let routed = false
  live.onFeed(() => {
    if (current === eventsPage) return
    unreadCount++
    shell.unread.hidden = false
    const count = unreadCount > 99 ? '99+' : String(unreadCount)
    render(shell.unread, count, h('span', { class: 'visually-hidden' }, ' new'))
  })
  const show = () => {
    const path = location.hash.replace(/^#/, '') || '/'
    const page = PAGES.find((p) => p.path === path) ?? overviewPage
    stop?.()
    current = page
    for (const [p, link] of shell.links) {
      if (p === page.path) link.setAttribute('aria-current', 'page')
      else link.removeAttribute('aria-current')
    }
    if (page === eventsPage) {
      unreadCount = 0
      shell.unread.hidden = true
    }
    document.title = `${page.title} · Asset Service SDK demo`
    shell.main.replaceChildren()
    stop = page.mount(shell.main, context)
    // Move focus to the new content for keyboard and screen-reader users (not on first load).
    if (routed) shell.main.focus({ preventScroll: true })
    routed = true
    window.scrollTo({ top: 0 })
  }
  window.addEventListener('hashchange', show)
  show()
}

boot(document.getElementById('app')!)

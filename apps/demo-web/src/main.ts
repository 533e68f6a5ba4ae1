import './styles.css'
import { ApiRequestError, api } from './api/client.ts'
import type { Space } from './api/types.ts'
import type { Page, PageContext } from './context.ts'
import { h, icon, render } from './dom.ts'
import { connectLive } from './live.ts'
import { eventsPage } from './pages/events.ts'
import { overviewPage } from './pages/overview.ts'
import { spacesPage } from './pages/spaces.ts'
import { teamPage } from './pages/team.ts'
import { uploadPage } from './pages/upload.ts'

const PAGES: Page[] = [overviewPage, teamPage, uploadPage, spacesPage, eventsPage]

async function boot(root: HTMLElement) {
  let info: Awaited<ReturnType<typeof api.config>>
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
  let spaces: Promise<Space[]> | undefined
  const context: PageContext = {
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

  const links = new Map<string, HTMLAnchorElement>()
  const unread = h('span', { class: 'nav-badge', hidden: true })
  const nav = h(
    'nav',
    { class: 'nav', 'aria-label': 'Main' },
    h(
      'ul',
      null,
      PAGES.map((page) => {
        const link = h(
          'a',
          { href: `#${page.path}`, class: 'nav-link' },
          icon(page.icon),
          h('span', null, page.label),
          page === eventsPage ? unread : null,
        )
        links.set(page.path, link)
        return h('li', null, link)
      }),
    ),
  )
  const liveDot = h('span', { class: 'live-dot' })
  const liveText = h('span', null, 'Connecting…')
  const liveStatus = h('div', { class: 'live-status', role: 'status' }, liveDot, liveText)
  const showConnection = (connected: boolean) => {
    liveDot.classList.toggle('on', connected)
    liveText.textContent = connected ? 'Live events connected' : 'Reconnecting to live events…'
  }
  live.onConnection(showConnection)
  showConnection(live.connected)

  const main = h('main', { id: 'main', class: 'main', tabindex: -1 })
  render(
    root,
    h('a', { class: 'skip-link', href: '#main', onclick: skipToMain(main) }, 'Skip to content'),
    h(
      'aside',
      { class: 'sidebar' },
      h(
        'div',
        { class: 'sidebar-inner' },
        h(
          'div',
          { class: 'brand' },
          h('img', { src: '/favicon.svg', alt: '', width: 28, height: 28 }),
          h('div', null, h('strong', null, 'Asset Service'), h('span', null, 'SDK demo')),
        ),
        nav,
        h(
          'div',
          { class: 'sidebar-footer' },
          h(
            'span',
            { class: `mode-badge mode-${info.mode}` },
            info.mode === 'simulator' ? 'Simulator' : 'Live service',
          ),
          liveStatus,
        ),
      ),
    ),
    main,
    h('div', { id: 'toasts', class: 'toasts', role: 'status', 'aria-live': 'polite' }),
  )

  let unreadCount = 0
  let current: Page | undefined
  live.onFeed(() => {
    if (current === eventsPage) return
    unreadCount++
    unread.hidden = false
    render(
      unread,
      unreadCount > 99 ? '99+' : String(unreadCount),
      h('span', { class: 'visually-hidden' }, ' new'),
    )
  })

  let stop: (() => void) | undefined
  const route = () => {
    const path = location.hash.replace(/^#/, '') || '/'
    const page = PAGES.find((p) => p.path === path) ?? overviewPage
    stop?.()
    current = page
    for (const [p, link] of links) {
      if (p === page.path) link.setAttribute('aria-current', 'page')
      else link.removeAttribute('aria-current')
    }
    if (page === eventsPage) {
      unreadCount = 0
      unread.hidden = true
    }
    document.title = `${page.title} · Asset Service SDK demo`
    main.replaceChildren()
    stop = page.mount(main, context)
    // Move focus to the new content for keyboard and screen-reader users (not on first load).
    if (routed) main.focus({ preventScroll: true })
    routed = true
    window.scrollTo({ top: 0 })
  }
  let routed = false
  window.addEventListener('hashchange', route)
  route()
}

function skipToMain(main: HTMLElement) {
  return (event: Event) => {
    event.preventDefault()
    main.focus()
  }
}

boot(document.getElementById('app')!)

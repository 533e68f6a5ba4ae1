import type { DemoInfo } from './api/types.ts'
import type { Page } from './context.ts'
import { h, icon, render } from './dom.ts'
import type { Live } from './live.ts'

/** The page's frame: the sidebar (brand, navigation, mode, live status), the content, the toasts. */
export interface Shell {
  main: HTMLElement
  /** Each page's navigation link, by path. */
  links: Map<string, HTMLAnchorElement>
  /** The badge counting events that arrived while another page was shown. */
  unread: HTMLElement
}

export function renderShell(
  root: HTMLElement,
  pages: Page[],
  badged: Page,
  info: DemoInfo,
  live: Live,
): Shell {
  const links = new Map<string, HTMLAnchorElement>()
  const unread = h('span', { class: 'nav-badge', hidden: true })
  const nav = h(
    'nav',
    { class: 'nav', 'aria-label': 'Main' },
    h(
      'ul',
      null,
      pages.map((page) => {
        const link = h(
          'a',
          { href: `#${page.path}`, class: 'nav-link' },
          icon(page.icon),
          h('span', null, page.label),
          page === badged ? unread : null,
        )
        links.set(page.path, link)
        return h('li', null, link)
      }),
    ),
  )
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
        h('div', { class: 'sidebar-footer' }, modeBadge(info), liveStatus(live)),
      ),
    ),
    main,
    h('div', { id: 'toasts', class: 'toasts', role: 'status', 'aria-live': 'polite' }),
  )
  return { main, links, unread }
}

function modeBadge(info: DemoInfo): HTMLElement {
  return h(
    'span',
    { class: `mode-badge mode-${info.mode}` },
    info.mode === 'simulator' ? 'Simulator' : 'Live service',
  )
}

/** Whether the live event stream is connected, kept up to date. */
function liveStatus(live: Live): HTMLElement {
  const dot = h('span', { class: 'live-dot' })
  const text = h('span', null, 'Connecting…')
  const show = (connected: boolean) => {
    dot.classList.toggle('on', connected)
    text.textContent = connected ? 'Live events connected' : 'Reconnecting to live events…'
  }
  live.onConnection(show)
  show(live.connected)
  return h('div', { class: 'live-status', role: 'status' }, dot, text)
}

function skipToMain(main: HTMLElement) {
  return (event: Event) => {
    event.preventDefault()
    main.focus()
  }
}

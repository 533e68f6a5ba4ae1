import type { ApiError } from './api/types.ts'
import { type Child, h, icon } from './dom.ts'

export function pageHeader(title: string, description: Child, ...actions: Child[]): HTMLElement {
  return h(
    'header',
    { class: 'page-header' },
    h('div', null, h('h1', null, title), h('p', { class: 'page-description' }, description)),
    actions.length > 0 ? h('div', { class: 'page-actions' }, actions) : null,
  )
}

export function card(
  options: { title?: string; subtitle?: Child; actions?: Child; class?: string },
  ...body: Child[]
) {
  const id = options.title ? `card-${options.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}` : undefined
  return h(
    'section',
    { class: `card ${options.class ?? ''}`.trim(), ...(id ? { 'aria-labelledby': id } : {}) },
    options.title
      ? h(
          'div',
          { class: 'card-header' },
          h(
            'div',
            null,
            h('h2', { id }, options.title),
            options.subtitle ? h('p', { class: 'card-subtitle' }, options.subtitle) : null,
          ),
          options.actions ? h('div', { class: 'card-actions' }, options.actions) : null,
        )
      : null,
    h('div', { class: 'card-body' }, body),
  )
}

export type Tone = 'info' | 'success' | 'warning' | 'danger'

export function alertBox(tone: Tone, title: string, ...body: Child[]): HTMLElement {
  const iconName = tone === 'success' ? 'check' : tone === 'info' ? 'info' : 'alert'
  return h(
    'div',
    { class: `alert alert-${tone}`, role: tone === 'danger' || tone === 'warning' ? 'alert' : 'status' },
    icon(iconName),
    h(
      'div',
      null,
      h('strong', { class: 'alert-title' }, title),
      body.length > 0 ? h('div', null, body) : null,
    ),
  )
}

/** An API failure, in words: the whitelist refusal gets its own explanation. */
export function errorAlert(error: unknown, what: string): HTMLElement {
  const e = apiError(error)
  if (e.code === 'domain_not_whitelisted') {
    return alertBox(
      'danger',
      'This email domain is not on the team’s whitelist',
      h('p', { class: 'service-text' }, e.message),
      h(
        'p',
        { class: 'hint' },
        `Only addresses on the team’s verified domains can be added${e.domain ? `; ${e.domain} is not one of them` : ''}. A team owner can verify a domain in the team dashboard.`,
      ),
    )
  }
  return alertBox('danger', `${what} failed`, h('p', null, e.message))
}

export function apiError(error: unknown): ApiError {
  if (typeof error === 'object' && error !== null && 'error' in error)
    return (error as { error: ApiError }).error
  return { code: 'unknown', status: 0, message: error instanceof Error ? error.message : String(error) }
}

export function emptyState(iconName: string, title: string, ...body: Child[]): HTMLElement {
  return h(
    'div',
    { class: 'empty' },
    h('div', { class: 'empty-icon' }, icon(iconName)),
    h('h3', null, title),
    body.length > 0 ? h('div', { class: 'empty-body' }, body) : null,
  )
}

export function spinner(label: string): HTMLElement {
  return h(
    'div',
    { class: 'loading', role: 'status' },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }),
    label,
  )
}

export function badge(text: string, tone: Tone | 'neutral' = 'neutral', title?: string): HTMLElement {
  return h('span', { class: `badge badge-${tone}`, ...(title ? { title } : {}) }, text)
}

/** A table in a scrolling frame (narrow screens scroll it sideways, the page stays put). */
export function table(caption: string, head: string[], rows: HTMLTableRowElement[]): HTMLElement {
  return h(
    'div',
    { class: 'table-frame', tabindex: 0, role: 'region', 'aria-label': caption },
    h(
      'table',
      { class: 'table' },
      h('caption', { class: 'visually-hidden' }, caption),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          head.map((title) => h('th', { scope: 'col' }, title)),
        ),
      ),
      h('tbody', null, rows),
    ),
  )
}

export interface Field {
  wrapper: HTMLElement
  input: HTMLInputElement
  setError(message: string | undefined): void
}

let fieldCount = 0

/** A labelled input with its hint and inline error (tied with aria-describedby / aria-invalid). */
export function field(options: {
  label: string
  name: string
  type?: string
  required?: boolean
  placeholder?: string
  hint?: string
  autocomplete?: string
}): Field {
  const id = `f${++fieldCount}-${options.name}`
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const input = h('input', {
    id,
    name: options.name,
    type: options.type ?? 'text',
    class: 'input',
    required: options.required ?? false,
    placeholder: options.placeholder,
    autocomplete: options.autocomplete,
    'aria-describedby': options.hint ? hintId : undefined,
  })
  const error = h('p', { id: errorId, class: 'field-error', hidden: true })
  const wrapper = h(
    'div',
    { class: 'field' },
    h(
      'label',
      { for: id },
      options.label,
      options.required ? null : h('span', { class: 'optional' }, ' (optional)'),
    ),
    input,
    options.hint ? h('p', { id: hintId, class: 'field-hint' }, options.hint) : null,
    error,
  )
  return {
    wrapper,
    input,
    setError(message) {
      error.hidden = message === undefined
      error.textContent = message ?? ''
      if (message === undefined) {
        input.removeAttribute('aria-invalid')
        input.setAttribute('aria-describedby', options.hint ? hintId : '')
      } else {
        input.setAttribute('aria-invalid', 'true')
        input.setAttribute('aria-describedby', [options.hint ? hintId : '', errorId].join(' ').trim())
      }
    },
  }
}

export function button(
  label: Child,
  onclick: (event: Event) => void,
  options: {
    variant?: 'primary' | 'secondary' | 'ghost' | 'danger'
    type?: 'button' | 'submit'
    disabled?: boolean
    small?: boolean
    ariaLabel?: string
  } = {},
): HTMLButtonElement {
  return h(
    'button',
    {
      type: options.type ?? 'button',
      class: `btn btn-${options.variant ?? 'secondary'}${options.small ? ' btn-sm' : ''}`,
      disabled: options.disabled ?? false,
      onclick,
      'aria-label': options.ariaLabel,
    },
    label,
  )
}

/** Mark a button busy while `work` runs. */
export async function busy<T>(btn: HTMLButtonElement, label: string, work: () => Promise<T>): Promise<T> {
  const before = [...btn.childNodes]
  btn.disabled = true
  btn.setAttribute('aria-busy', 'true')
  btn.replaceChildren(h('span', { class: 'spinner spinner-sm', 'aria-hidden': 'true' }), label)
  try {
    return await work()
  } finally {
    btn.disabled = false
    btn.removeAttribute('aria-busy')
    btn.replaceChildren(...before)
  }
}

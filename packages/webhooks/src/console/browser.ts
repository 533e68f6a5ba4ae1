// The console page's script (served as `<basePath>/assets/console.js`, a classic script with its
// types stripped; see assets.ts). The page works without it for reading: filters are a GET form,
// pages and events are links. The script adds what changes the inbox: each action is a JSON POST
// to the console's API (the only kind of request it accepts for them; see actions.ts), and the
// page reloads to show the result, the outcome said in the status region.

{
  const base = document.body.dataset.base ?? ''
  const status = document.getElementById('status')
  const NOTE = 'inbox-console-note'

  const say = (text: string) => {
    if (status) status.textContent = text
  }
  const saved = sessionStorage.getItem(NOTE)
  if (saved) {
    sessionStorage.removeItem(NOTE)
    say(saved)
  }

  /** A key as the page carries it: ASCII JSON in `data-key` (HTML cannot hold every string). */
  const keyOf = (element: HTMLElement): string => JSON.parse(element.dataset.key ?? '""') as string

  const post = async (action: string, body: unknown): Promise<Record<string, number> | undefined> => {
    const response = await fetch(`${base}/api/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    })
    const answer = (await response.json().catch(() => ({}))) as {
      error?: { message?: string }
    } & Record<string, number>
    if (response.ok) return answer
    say(`Not done: ${answer.error?.message ?? `the server answered ${response.status}`}`)
    return undefined
  }

  const done = (text: string) => {
    sessionStorage.setItem(NOTE, text)
    location.reload()
  }

  const plural = (n: number) => `${n} event${n === 1 ? '' : 's'}`

  const picked = (wanted: string): string[] =>
    [...document.querySelectorAll<HTMLInputElement>('input.pick:checked')]
      .filter((box) => box.dataset.status === wanted)
      .map(keyOf)

  const pickAll = document.getElementById('pick-all') as HTMLInputElement | null
  pickAll?.addEventListener('change', () => {
    for (const box of document.querySelectorAll<HTMLInputElement>('input.pick')) box.checked = pickAll.checked
  })

  const act = async (button: HTMLButtonElement) => {
    const action = button.dataset.action
    const own = button.dataset.key === undefined ? undefined : [keyOf(button)]
    if (action === 'requeue-all') {
      if (!confirm('Requeue every dead event?')) return
      const answer = await post('requeue', { allDead: true })
      if (answer) done(`Requeued ${plural(answer.requeued ?? 0)}.`)
      return
    }
    const wanted = action === 'replay' ? 'done' : 'dead'
    const keys = own ?? picked(wanted)
    if (keys.length === 0) {
      say(`Select ${wanted} events first.`)
      return
    }
    const answer = await post(action === 'replay' ? 'replay' : 'requeue', { keys })
    if (!answer) return
    if (action === 'replay') done(`Replayed ${plural(answer.replayed ?? 0)}.`)
    else done(`Requeued ${plural(answer.requeued ?? 0)}.`)
  }

  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-action]'))
    button.addEventListener('click', () => {
      button.disabled = true
      act(button)
        .catch(() => say('Not done: the server could not be reached.'))
        .finally(() => {
          button.disabled = false
        })
    })

  const prune = document.getElementById('prune') as HTMLFormElement | null
  prune?.addEventListener('submit', (event) => {
    event.preventDefault()
    const form = new FormData(prune)
    const days = Number(form.get('days'))
    const which = String(form.get('status'))
    if (!confirm(`Delete ${which} events finished more than ${days} days ago?`)) return
    post('prune', { olderThanMs: Math.round(days * 86_400_000), status: which })
      .then((answer) => answer && done(`Pruned ${plural(answer.pruned ?? 0)}.`))
      .catch(() => say('Not done: the server could not be reached.'))
  })
}

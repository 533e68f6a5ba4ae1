/** A plain, readable page shell for the simulator's own pages. */
export function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title.replace(/</g, '&lt;')}</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; padding: 1.5rem; line-height: 1.5; }
  h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
  code { font-size: .9em; }
</style>
${head}
</head>
<body>
${body}
</body>
</html>`
}

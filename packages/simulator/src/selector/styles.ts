/** The selector page's stylesheet, served from /outer/assets/selector.css (the CSP allows no inline style). */
export const STYLES = `
:root {
  --bg: #ffffff; --panel: #f6f7f9; --text: #1d2330; --muted: #5d6676; --line: #e2e5ea;
  --accent: #2f6bff; --accent-text: #ffffff; --hover: #eef2fb; --selected: #dfe8ff;
  --danger: #c62828; --ok: #2e7d32; --badge: #eceef2; --focus: #2f6bff;
  color-scheme: light;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
:root[data-theme="dark"] {
  --bg: #16181d; --panel: #1e2128; --text: #e7e9ee; --muted: #9aa3b2; --line: #2d313a;
  --accent: #6d9bff; --accent-text: #0b1020; --hover: #232834; --selected: #25365e;
  --danger: #ff7b72; --ok: #7ee787; --badge: #2a2f3a; --focus: #8fb1ff;
  color-scheme: dark;
}
* { box-sizing: border-box; }
html, body { height: 100%; }
body { margin: 0; background: var(--bg); color: var(--text); }
.selector { display: flex; flex-direction: column; height: 100%; min-height: 0; }
.bar { display: flex; align-items: center; gap: 12px; padding: 12px 16px; background: var(--panel); }
.top { justify-content: space-between; border-bottom: 1px solid var(--line); }
.bottom { border-top: 1px solid var(--line); flex-wrap: wrap; }
h1 { font-size: 16px; margin: 0; font-weight: 600; }
h2 { font-size: 12px; margin: 0 0 6px; font-weight: 600; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.who { margin: 0; color: var(--muted); font-size: 13px; }
.sim { margin-left: 6px; padding: 1px 6px; border-radius: 999px; background: var(--badge); font-size: 11px; }
.files { padding: 10px 16px; border-bottom: 1px solid var(--line); max-height: 40%; overflow: auto; }
.note { margin: 0; color: var(--muted); }
.file-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 6px; }
.file { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 2px 12px; align-items: center; }
.file-name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.file-size { color: var(--muted); font-size: 12px; font-variant-numeric: tabular-nums; }
.file progress { grid-column: 1 / -1; width: 100%; height: 6px; accent-color: var(--accent); }
.file[data-state="done"] .file-size { color: var(--ok); }
.file[data-state="failed"] .file-size { color: var(--danger); }
.tree-wrap { flex: 1; min-height: 0; overflow: auto; padding: 8px 8px 12px; }
[role="tree"], [role="group"] { list-style: none; margin: 0; padding: 0; }
[role="group"] { padding-left: 18px; }
[role="treeitem"] { outline: none; }
[role="treeitem"][aria-expanded="false"] > [role="group"] { display: none; }
.row { display: flex; align-items: center; gap: 6px; min-height: 32px; padding: 2px 8px; border-radius: 6px; cursor: pointer; user-select: none; }
.row:hover { background: var(--hover); }
[role="treeitem"]:focus-visible > .row { box-shadow: inset 0 0 0 2px var(--focus); }
[role="treeitem"][aria-selected="true"] > .row { background: var(--selected); font-weight: 600; }
[role="treeitem"][aria-disabled="true"] > .row { color: var(--muted); cursor: not-allowed; }
[role="treeitem"][aria-disabled="true"] > .row:hover { background: transparent; }
.space { margin-top: 4px; }
.space > .row .label { font-weight: 600; }
.label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.twisty { width: 16px; height: 16px; flex: none; position: relative; }
[aria-expanded] > .row > .twisty::before {
  content: ""; position: absolute; left: 5px; top: 4px; border: 4px solid transparent;
  border-left: 6px solid var(--muted); transition: transform .12s;
  transform-origin: 3px 4px;
}
[aria-expanded="true"] > .row > .twisty::before { transform: rotate(90deg); }
.icon { width: 18px; height: 14px; flex: none; position: relative; border-radius: 2px 3px 3px 3px; }
.icon-folder { background: #f2c14e; }
.icon-folder::before { content: ""; position: absolute; left: 0; top: -3px; width: 8px; height: 4px; border-radius: 2px 2px 0 0; background: #f2c14e; }
.icon-space { background: var(--accent); border-radius: 4px; height: 16px; width: 16px; }
[aria-disabled="true"] > .row .icon { filter: grayscale(1); opacity: .6; }
.role { color: var(--muted); font-size: 12px; white-space: nowrap; }
.badge { margin-left: auto; padding: 1px 8px; border-radius: 999px; background: var(--badge); color: var(--muted); font-size: 11px; font-weight: 600; white-space: nowrap; }
.status { flex: 1; min-width: 12em; margin: 0; color: var(--muted); }
.status[data-kind="error"] { color: var(--danger); }
.status[data-kind="ok"] { color: var(--ok); }
.actions { display: flex; gap: 8px; margin-left: auto; }
.button { font: inherit; padding: 6px 16px; border-radius: 6px; border: 1px solid var(--line); background: var(--bg); color: var(--text); cursor: pointer; }
.button:hover:not(:disabled) { background: var(--hover); }
.button:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
.button:disabled { opacity: .5; cursor: not-allowed; }
.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-text); font-weight: 600; }
.primary:hover:not(:disabled) { background: var(--accent); filter: brightness(1.08); }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
`

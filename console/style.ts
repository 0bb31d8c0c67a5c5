// The console's style sheet, plain CSS served as /console/assets/console.css. Colours are chosen for
// WCAG AA contrast (4.5:1 for text) on their backgrounds; the layout works from 375 px wide.
export const CONSOLE_STYLE = `
*, *::before, *::after { box-sizing: border-box; }
:root { --ink: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --paper: #ffffff; --wash: #f3f4f6; --accent: #1d4ed8; --accent-ink: #ffffff;
  --danger: #b42318; --ok: #166534; --warn: #8a4b00; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0; color: var(--ink); background: var(--paper); line-height: 1.5; font-size: 16px; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, [tabindex]:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
/* A date field's calendar button is a Tab stop inside the field, where the field itself is not :focus-visible. */
input[type="date"]:focus-within { outline: 3px solid #f59e0b; outline-offset: 2px; }
h1:focus { outline: none; }
.skip { position: absolute; left: -999px; top: 0; background: var(--paper); padding: .5rem; }
.skip:focus { left: .5rem; z-index: 10; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; padding: .5rem 1rem; background: #111827; color: #ffffff; }
.top a { color: #ffffff; text-decoration: none; }
.top a.current, .top a:hover { text-decoration: underline; }
.brand { font-weight: 700; font-size: 1.1rem; }
.top nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
.who { margin-left: auto; display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; min-width: 0; overflow-wrap: anywhere; }
.who button { background: transparent; color: #ffffff; border-color: #ffffff; }
.page { max-width: 64rem; margin: 0 auto; padding: 1rem; overflow-wrap: anywhere; } /* a long unbroken name wraps instead of widening the page */
.narrow { max-width: 32rem; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.25rem; margin: 1.5rem 0 .5rem; }
h3 { font-size: 1.05rem; margin: 1rem 0 .25rem; }
button, .button { display: inline-block; font: inherit; padding: .45rem .9rem; border: 1px solid #6b7280; border-radius: 6px; background: var(--wash); color: var(--ink); cursor: pointer; text-decoration: none; min-height: 2.5rem; }
button.primary, .button.primary { background: var(--accent); color: var(--accent-ink); border-color: var(--accent); }
button.danger { background: #ffffff; color: var(--danger); border-color: var(--danger); }
button.override { background: #ffffff; color: var(--warn); border-color: var(--warn); }
button.chosen, button[aria-pressed="true"] { background: #111827; color: #ffffff; }
button:disabled { opacity: 1; color: #595959; background: #e5e7eb; border-color: #9ca3af; cursor: not-allowed; }
input, select, textarea { font: inherit; padding: .4rem .5rem; border: 1px solid #6b7280; border-radius: 6px; width: 100%; max-width: 32rem; background: #ffffff; color: var(--ink); }
input[type="checkbox"], input[type="radio"] { width: auto; min-width: 1.25rem; min-height: 1.25rem; }
.field { display: flex; flex-direction: column; gap: .25rem; margin: .75rem 0; }
.field.check { flex-direction: row; flex-wrap: wrap; align-items: center; gap: .5rem; }
.field.check .hint, .field.check .error { flex-basis: 100%; margin: 0; }
.required { font-weight: 400; color: var(--muted); }
.field p { margin: 0; }
[aria-invalid="true"] { border-color: var(--danger); }
label { font-weight: 600; }
.choice { font-weight: 400; display: flex; gap: .5rem; align-items: center; margin: .25rem 0; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: .75rem 0; padding: .5rem 1rem; }
legend { font-weight: 600; padding: 0 .25rem; }
.hint { color: var(--muted); font-size: .95rem; }
.error { color: var(--danger); background: #fef3f2; border: 1px solid #fda29b; border-radius: 6px; padding: .5rem .75rem; }
.notice { background: #eff6ff; border: 1px solid #93c5fd; border-radius: 6px; padding: .5rem .75rem; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: .75rem 0; }
.decisions { display: flex; flex-wrap: wrap; gap: .25rem; }
.decisions button { min-height: 2.25rem; padding: .25rem .6rem; }
.counts { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: .75rem; }
.counts li { background: var(--wash); border-radius: 8px; padding: .75rem 1rem; }
.counts strong { display: block; font-size: 1.8rem; }
.results, .chosen, .plain { list-style: none; padding: 0; }
.results li, .chosen li, .plain li { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; padding: .35rem 0; border-bottom: 1px solid var(--line); }
.chosen label { font-weight: 400; }
.chosen select { width: auto; }
.preview { background: var(--wash); border-radius: 8px; padding: .25rem 1rem .75rem; margin: 1rem 0; }
.table-wrap { overflow-x: auto; position: relative; } /* relative: a visually hidden header stays inside, not widening the page */
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td code { overflow-wrap: anywhere; } /* long values (URLs, paths) wrap rather than widen a table */
.badge { display: inline-block; padding: 0 .5rem; border-radius: 999px; font-size: .85rem; font-weight: 600; border: 1px solid currentColor; }
.badge-approved { color: var(--ok); } .badge-denied, .badge-rejected { color: var(--danger); } .badge-pending { color: var(--warn); } .badge-canceled { color: var(--muted); }
.badge-break-glass { color: var(--danger); }
.break-glass { border-left: 4px solid var(--danger); padding-left: .75rem; }
.wrap { overflow-wrap: anywhere; }
.checklist { max-height: 14rem; overflow-y: auto; border: 1px solid var(--line); border-radius: 6px; padding: .25rem .5rem; max-width: 32rem; }
.chip { display: inline-block; margin: 0 .25rem .25rem 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
.facts dt { font-weight: 600; } .facts dd { margin: 0; }
.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 0 1rem; align-items: end; }
.filters button { margin: .75rem 0; }
.steps { list-style: none; padding: 0; max-width: 40rem; } /* the first-run steps: whole, never a scroll box */
.steps li { display: flex; gap: .75rem; align-items: flex-start; padding: .5rem 0; border-bottom: 1px solid var(--line); }
.steps .tick { font-size: 1.25rem; line-height: 1.2; min-width: 1.25rem; color: var(--muted); }
.steps li.done .tick { color: var(--ok); }
dialog.confirm { max-width: min(32rem, calc(100vw - 2rem)); border: 1px solid #6b7280; border-radius: 8px; padding: 1rem 1.25rem; color: var(--ink); background: var(--paper); }
dialog.confirm::backdrop { background: rgba(17, 24, 39, .55); }
dialog.confirm h2 { margin-top: 0; }
/* Narrow screens: a table.stack becomes one block per row, each cell labelled by its column
   (data-label), so nothing scrolls sideways and each row's actions stay in view. */
@media (max-width: 640px) {
  table.stack caption { display: block; }
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; width: 100%; }
  table.stack tr { border-bottom: 1px solid var(--line); padding: .5rem 0; }
  table.stack td { border: 0; padding: .15rem 0; overflow-wrap: anywhere; }
  table.stack td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; }
  table.stack td.row-actions { padding-top: .35rem; }
}
.menu-toggle { display: none; background: transparent; color: #ffffff; border-color: #ffffff; margin-left: auto; }
@media (max-width: 640px) {
  .menu-toggle { display: inline-block; }
  .top nav { flex-basis: 100%; }
  .top nav ul { flex-direction: column; gap: 0; }
  .top nav ul:not(.open) { display: none; }
  .top nav li a { display: block; padding: .5rem 0; }
  .who { flex-basis: 100%; }
}
@media (max-width: 480px) { .page { padding: .75rem; } h1 { font-size: 1.35rem; } .who { margin-left: 0; } }
`;

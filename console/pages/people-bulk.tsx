// Adding many people at once (People, admins): pasted `email, name` lines or a CSV file, a preview of what
// each line would do, then one POST /v1/users per new person (and, if chosen, an emailed invitation), with
// each line's result in words. Every write is the API's own, with its checks and its audit event.
import { useState } from 'preact/hooks';
import { ApiError, get, post } from '../api.ts';
import { Link, messageOf, Problem, useAction } from '../ui.tsx';

/** The most lines one go takes: a preview reads one user per line. */
export const MOST_LINES = 500;
/** How many look-ups run at once while previewing. */
const LOOKUPS_AT_ONCE = 4;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One line of the input, as read: its number (1-based, as an editor counts) and its first two fields. */
export interface PersonLine {
  line: number;
  email: string;
  name: string;
}

/**
 * Reads CSV (RFC 4180: quoted fields, doubled quotes, commas and line breaks inside quotes, CRLF or LF)
 * into rows of fields. Blank lines are dropped; each row keeps the line number it started on.
 */
export function readCsv(text: string): { line: number; fields: string[] }[] {
  const rows: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const endRow = () => {
    fields.push(field);
    if (fields.some((f) => f.trim() !== '')) rows.push({ line: start, fields });
    fields = [];
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field.trim() === '') {
      field = '';
      quoted = true;
    } else if (c === ',' || c === ';' || c === '\t') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      start = line;
    } else field += c;
  }
  endRow();
  return rows;
}

/**
 * The people in pasted text or a CSV file: `email, name` per line (a header line naming `email` is skipped;
 * a line giving the name first is read the right way round, since only one field is an address).
 */
export function readPeople(text: string): PersonLine[] {
  const rows = readCsv(text);
  const first = rows[0]?.fields.map((f) => f.trim().toLowerCase()) ?? [];
  const header = first.includes('email') || first.includes('e-mail');
  return rows.slice(header ? 1 : 0).map(({ line, fields }) => {
    let [email = '', name = ''] = fields.map((f) => f.trim().replace(/\s+/g, ' '));
    if (!email.includes('@') && name.includes('@')) [email, name] = [name, email];
    return { line, email, name };
  });
}

type Plan =
  | { kind: 'add' }
  | { kind: 'exists'; userId: string; name: string }
  | { kind: 'skip'; why: string };

type Outcome =
  | { kind: 'added'; userId: string; invited: boolean; inviteProblem?: string }
  | { kind: 'refused'; why: string };

interface Row extends PersonLine {
  plan: Plan;
  outcome?: Outcome;
}

/** What each line would do: checked here (an address, a name, not twice) and against who exists already. */
async function planLines(lines: PersonLine[]): Promise<Row[]> {
  const seen = new Map<string, number>();
  const rows: Row[] = lines.map((l) => {
    const key = l.email.toLowerCase();
    const plan: Plan = !EMAIL.test(l.email) ? { kind: 'skip', why: l.email ? `"${l.email}" is not an email address` : 'no email on this line' }
      : l.name === '' ? { kind: 'skip', why: 'no name on this line (write it after the email and a comma)' }
      : seen.has(key) ? { kind: 'skip', why: `the same email as line ${seen.get(key)}` }
      : { kind: 'add' };
    if (!seen.has(key)) seen.set(key, l.line);
    return { ...l, plan };
  });
  const toCheck = rows.filter((r) => r.plan.kind === 'add');
  let next = 0;
  const worker = async () => {
    while (next < toCheck.length) {
      const row = toCheck[next++]!;
      try {
        const user = await get('/user', { query: { email: row.email } });
        row.plan = { kind: 'exists', userId: user.user_id, name: user.full_name };
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: LOOKUPS_AT_ONCE }, worker));
  return rows;
}

function planWords(plan: Plan): string {
  if (plan.kind === 'add') return 'will be added';
  if (plan.kind === 'exists') return `already in Gatehouse, as ${plan.name}: left as is`;
  return `skipped: ${plan.why}`;
}

function OutcomeWords(props: { row: Row }) {
  const { outcome, plan } = props.row;
  if (!outcome) return <>{planWords(plan)}</>;
  if (outcome.kind === 'refused') return <>not added: {outcome.why}</>;
  return (
    <>added as <Link href={`/console/users/${outcome.userId}`}>{props.row.name}</Link>
      {outcome.invited ? ', invitation sent' : outcome.inviteProblem ? `; the invitation was not sent: ${outcome.inviteProblem}` : ''}</>
  );
}

/** The "Add many people" section of People: paste or choose a file, preview, add. */
export function AddManyPeople(props: { onAdded: () => void }) {
  const emailSetUp = document.body.dataset.email === 'on';
  const [text, setText] = useState('');
  const [rows, setRows] = useState<Row[] | undefined>(undefined);
  const [invite, setInvite] = useState(emailSetUp);
  const [progress, setProgress] = useState<string | undefined>(undefined);
  const [finished, setFinished] = useState(false);
  const action = useAction();

  const choose = async (e: Event) => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0];
    if (!file) return;
    if (file.size > 1_000_000) return action.setError(`${file.name} is larger than 1 MB: split it, at most ${MOST_LINES} people each.`);
    setText(await file.text());
    setRows(undefined);
    setFinished(false);
  };
  const preview = (e: Event) => {
    e.preventDefault();
    setFinished(false);
    setProgress(undefined);
    void action.run(async () => {
      const lines = readPeople(text);
      if (lines.length === 0) throw new Error('Nothing to add: write one person a line, as email, name.');
      if (lines.length > MOST_LINES) throw new Error(`That is ${lines.length} people: add at most ${MOST_LINES} at a time.`);
      setRows(await planLines(lines));
    });
  };
  const add = () => action.run(async () => {
    if (!rows) return;
    const adding = rows.filter((r) => r.plan.kind === 'add');
    const done: Row[] = rows.map((r) => ({ ...r }));
    let n = 0;
    for (const row of done) {
      if (row.plan.kind !== 'add') continue;
      setProgress(`Adding ${++n} of ${adding.length}…`);
      try {
        const user = await post('/users', { body: { email: row.email, full_name: row.name } });
        row.outcome = { kind: 'added', userId: user.user_id, invited: false };
        if (invite) {
          try {
            await post('/users/{user_id}/sign-in-link', { path: { user_id: user.user_id }, body: { kind: 'INVITATION', send_email: true } });
            row.outcome.invited = true;
          } catch (err) {
            row.outcome.inviteProblem = messageOf(err);
          }
        }
      } catch (err) {
        row.outcome = { kind: 'refused', why: messageOf(err) };
      }
      setRows([...done]);
    }
    const added = done.filter((r) => r.outcome?.kind === 'added').length;
    const invited = done.filter((r) => r.outcome?.kind === 'added' && r.outcome.invited).length;
    const refused = done.filter((r) => r.outcome?.kind === 'refused').length;
    setProgress(`Done: ${added} added${invite ? `, ${invited} invited` : ''}${refused ? `, ${refused} not added` : ''}. Each line's result is below.`);
    setFinished(true);
    if (added > 0) props.onAdded();
  });

  const count = rows?.filter((r) => r.plan.kind === 'add').length ?? 0;
  return (
    <section aria-labelledby="add-many">
      <h2 id="add-many">Add many people</h2>
      <form onSubmit={preview}>
        <div class="field"><label for="many-lines">People, one a line: email, name</label>
          <textarea id="many-lines" rows={6} spellcheck={false} aria-describedby="many-lines-help" value={text}
            onInput={(e) => { setText(e.currentTarget.value); setRows(undefined); setFinished(false); }} />
          <p class="hint" id="many-lines-help">For example <code>alex@example.com, Alex Doe</code>. A spreadsheet saved as CSV works too: a first line naming the columns (email, name) is skipped. At most {MOST_LINES} at a time.</p></div>
        <div class="field"><label for="many-file">Or choose a CSV file</label>
          <input id="many-file" type="file" accept=".csv,.txt,text/csv,text/plain" onChange={choose} /></div>
        <button type="submit" disabled={action.busy || text.trim() === ''}>Preview</button>
      </form>
      <Problem message={action.error} />
      {rows && (
        <>
          <div class="table-wrap">
            <table class="stack">
              <caption>{finished ? 'What each line did' : `What each line would do: ${count} to add`}</caption>
              <thead><tr><th scope="col">Line</th><th scope="col">Email</th><th scope="col">Name</th><th scope="col">{finished ? 'Result' : 'Preview'}</th></tr></thead>
              <tbody>{rows.map((r) => (
                <tr key={r.line} data-plan={r.plan.kind}>
                  <td data-label="Line">{r.line}</td>
                  <td data-label="Email">{r.email || '—'}</td>
                  <td data-label="Name">{r.name || '—'}</td>
                  <td data-label={finished ? 'Result' : 'Preview'}><OutcomeWords row={r} /></td>
                </tr>
              ))}</tbody>
            </table>
          </div>
          {!finished && count > 0 && (
            <>
              {emailSetUp ? (
                <div class="field check"><input id="many-invite" type="checkbox" checked={invite} onChange={(e) => setInvite(e.currentTarget.checked)} />
                  <label for="many-invite">Email each new person an invitation</label></div>
              ) : <p class="hint">Email is not set up, so nobody is invited: send each person a sign-in link from their page.</p>}
              <button type="button" class="primary" disabled={action.busy} onClick={add}>{`Add ${count} ${count === 1 ? 'person' : 'people'}`}</button>
            </>
          )}
        </>
      )}
      <p role="status">{progress}</p>
    </section>
  );
}

// The audit trail: GET /v1/events's filters, links to the objects events name, paging, and export.
import { useState } from 'preact/hooks';
import { all, get, type Me } from '../api.ts';
import { AdminOnly, Link, Page, Pending, Problem, useAction, useLoad, when } from '../ui.tsx';

const FILTERS = [
  ['start_date_filter', 'From (date)', 'date'],
  ['end_date_filter', 'To (date)', 'date'],
  ['actor_filter', 'Actor (user id)', 'text'],
  ['object_filter', 'Object id', 'text'],
  ['event_type_filter', 'Event type', 'text'],
  ['api_token_filter', 'Token (e.g. console)', 'text'],
] as const;

/** The console page an id field of a sub-event names, if there is one. */
function linkFor(field: string, value: string): string | undefined {
  if (field === 'resource_id') return `/console/resources/${value}`;
  if (field === 'group_id') return `/console/groups/${value}`;
  if (field === 'user_id') return `/console/users/${value}`;
  if (field === 'request_id') return `/console/requests/${value}`;
  if (field === 'uar_id') return `/console/reviews/${value}`;
  return undefined;
}

export function AuditTrail(props: { me: Me }) {
  const initial = Object.fromEntries(new URLSearchParams(location.search));
  const [draft, setDraft] = useState<Record<string, string>>(initial);
  const [filters, setFilters] = useState<Record<string, string>>(initial);
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const loaded = useLoad(() => get('/events', { query: { ...filters, cursor, page_size: 50 } }), [JSON.stringify(filters), cursor]);
  const apply = (e: Event) => {
    e.preventDefault();
    setCursors([]);
    setFilters(Object.fromEntries(Object.entries(draft).filter(([, v]) => v.trim() !== '')));
    history.replaceState(null, '', `/console/events?${new URLSearchParams(draft)}`);
  };
  const download = (events: unknown[], name: string) => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([events.map((event) => JSON.stringify(event)).join('\n') + '\n'], { type: 'application/x-ndjson' }));
    link.download = name;
    link.click();
  };
  const exporting = useAction();
  const EXPORT_MAX = 10_000;
  const exportAll = () => exporting.run(async () => {
    const events = await all('/events', { query: filters }, EXPORT_MAX);
    download(events, 'gatehouse-events.jsonl');
    exporting.setError(events.length >= EXPORT_MAX ? `Exported the newest ${EXPORT_MAX} events; narrow the filters, or use gatehouse audit export for the whole trail.` : undefined);
  });
  return (
    <AdminOnly me={props.me}>
      <Page title="Audit trail">
        <form onSubmit={apply} class="filters">
          {FILTERS.map(([name, label, type]) => (
            <div class="field" key={name}>
              <label for={`f-${name}`}>{label}</label>
              <input id={`f-${name}`} type={type as string as "text"} value={draft[name] ?? ''} onInput={(e) => setDraft({ ...draft, [name]: e.currentTarget.value })} />
            </div>
          ))}
          <button type="submit" class="primary">Filter</button>
        </form>
        <p class="hint">Export as JSON Lines: this page, or every event the filters match (up to 10,000). The whole verifiable trail: <code>gatehouse audit export</code>.</p>
        <div class="actions">
          <button type="button" onClick={() => download(loaded.data?.results ?? [], 'gatehouse-events-page.jsonl')}>Export this page</button>
          <button type="button" disabled={exporting.busy} onClick={exportAll}>{exporting.busy ? 'Exporting…' : 'Export all matching events'}</button>
        </div>
        <Problem message={exporting.error} />
        <Pending loaded={loaded}>{({ results = [], next }) => (
          <>
            <div class="table-wrap">
              <table>
                <caption>Events, newest first</caption>
                <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Who</th><th scope="col">Objects</th></tr></thead>
                <tbody>{results.map((event) => (
                  <tr key={event.event_id}>
                    <td>{when(event.created_at)}</td>
                    <td>{event.event_type}</td>
                    <td><Link href={`/console/users/${event.actor_user_id}`}>{event.actor_name}</Link>{event.api_token_name ? ` via ${event.api_token_name}` : ''}</td>
                    <td>{(event.sub_events ?? []).flatMap((sub) => Object.entries(sub).filter(([k, v]) => typeof v === 'string' && linkFor(k, v as string)).map(([k, v]) => (
                      <Link key={`${k}${v}`} href={linkFor(k, v as string)!} class="chip">{String(sub[k.replace(/_id$/, '_name')] ?? k.replace(/_id$/, ''))}</Link>
                    )))}</td>
                  </tr>
                ))}</tbody>
              </table>
            </div>
            <div class="actions">
              {cursors.length > 0 && <button type="button" onClick={() => setCursors(cursors.slice(0, -1))}>Newer</button>}
              {next && <button type="button" onClick={() => setCursors([...cursors, next])}>Older</button>}
            </div>
          </>
        )}</Pending>
      </Page>
    </AdminOnly>
  );
}

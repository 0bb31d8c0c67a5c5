// The audit trail: GET /v1/events's filters, links to the objects events name, paging, and export.
import { useState } from 'preact/hooks';
import { get, type Me } from '../api.ts';
import { AdminOnly, Link, Page, Pending, useLoad, when } from '../ui.tsx';

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
  const loaded = useLoad(() => get('/events', { ...filters, cursor, page_size: 50 }), [JSON.stringify(filters), cursor]);
  const apply = (e: Event) => {
    e.preventDefault();
    setCursors([]);
    setFilters(Object.fromEntries(Object.entries(draft).filter(([, v]) => v.trim() !== '')));
    history.replaceState(null, '', `/console/events?${new URLSearchParams(draft)}`);
  };
  const exportPage = () => {
    const rows = (loaded.data?.results ?? []).map((event: unknown) => JSON.stringify(event)).join('\n');
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([rows + '\n'], { type: 'application/x-ndjson' }));
    link.download = 'gatehouse-events.jsonl';
    link.click();
  };
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
        <p class="hint">Export: this page as JSON Lines, or the whole verifiable trail with <code>gatehouse audit export</code>.</p>
        <button type="button" onClick={exportPage}>Export this page</button>
        <Pending loaded={loaded}>{(page) => (
          <>
            <div class="table-wrap">
              <table>
                <caption>Events, newest first</caption>
                <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Who</th><th scope="col">Objects</th></tr></thead>
                <tbody>{page.results.map((event: any) => (
                  <tr key={event.event_id}>
                    <td>{when(event.created_at)}</td>
                    <td>{event.event_type}</td>
                    <td><Link href={`/console/users/${event.actor_user_id}`}>{event.actor_name}</Link>{event.api_token_name ? ` via ${event.api_token_name}` : ''}</td>
                    <td>{event.sub_events.flatMap((sub: any) => Object.entries(sub).filter(([k, v]) => typeof v === 'string' && linkFor(k, v as string)).map(([k, v]) => (
                      <Link key={`${k}${v}`} href={linkFor(k, v as string)!} class="chip">{String(sub[k.replace(/_id$/, '_name')] ?? k.replace(/_id$/, ''))}</Link>
                    )))}</td>
                  </tr>
                ))}</tbody>
              </table>
            </div>
            <div class="actions">
              {cursors.length > 0 && <button type="button" onClick={() => setCursors(cursors.slice(0, -1))}>Newer</button>}
              {page.next && <button type="button" onClick={() => setCursors([...cursors, page.next])}>Older</button>}
            </div>
          </>
        )}</Pending>
      </Page>
    </AdminOnly>
  );
}

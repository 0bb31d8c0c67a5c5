// The audit trail: GET /v1/events's filters (a person and an item picked by name), what happened in
// words with the people and items it names linked by name, paging, and export.
import { useState } from 'preact/hooks';
import { all, get, type Me, type Schema } from '../api.ts';
import { findItems, findPeople, Picker } from '../pick.tsx';
import { AdminOnly, inWords, Link, Page, Pending, Problem, useAction, useLoad, when } from '../ui.tsx';

const FILTERS = [
  ['start_date_filter', 'From (date)', 'date'],
  ['end_date_filter', 'To (date)', 'date'],
  ['event_type_filter', 'Event type (e.g. REQUESTS_CREATED)', 'text'],
  ['api_token_filter', 'Token (e.g. console)', 'text'],
] as const;

type Kind = 'resource' | 'group' | 'user' | 'request' | 'review' | 'break-glass';
// The id fields of sub-events that name something with a console page, and what that is.
const ID_FIELDS: Record<string, Kind> = {
  resource_id: 'resource', group_id: 'group', user_id: 'user', requester_id: 'user', target_user_id: 'user', request_id: 'request', uar_id: 'review',
  break_glass_id: 'break-glass',
};
const PAGE_OF: Record<Kind, string> = { resource: 'resources', group: 'groups', user: 'users', request: 'requests', review: 'reviews', 'break-glass': 'break-glass' };

// People's names by id, kept across pages of the trail: sub-events carry ids, the page shows names.
const names = new Map<string, string>();

/** Looks up the names of the people `events` name by id only (one read each, once). */
async function learnNames(events: Schema<'Event'>[]): Promise<void> {
  const wanted = new Set<string>();
  for (const event of events) {
    names.set(event.actor_user_id, event.actor_name);
    for (const sub of event.sub_events ?? []) {
      for (const [field, value] of Object.entries(sub)) if (ID_FIELDS[field] === 'user' && typeof value === 'string' && !names.has(value)) wanted.add(value);
    }
  }
  await Promise.all([...wanted].map((id) => get('/users/{user_id}', { path: { user_id: id } }).then((u) => names.set(id, u.full_name ?? u.email), () => names.set(id, 'a person no longer here'))));
}

interface Named { href: string; label: string }

/** The people and items an event names, each once, by name. */
function namedIn(event: Schema<'Event'>): Named[] {
  const seen = new Map<string, Named>();
  for (const sub of event.sub_events ?? []) {
    const text = (field: string) => (typeof sub[field] === 'string' ? sub[field] : undefined);
    for (const [field, value] of Object.entries(sub)) {
      const kind = ID_FIELDS[field];
      if (!kind || typeof value !== 'string' || seen.has(value)) continue;
      const requester = text('requester_id');
      const label = kind === 'user' ? names.get(value) ?? 'a person'
        : kind === 'request' ? `request by ${(requester && names.get(requester)) ?? 'someone'}`
        : kind === 'review' ? `access review ${text('uar_name') ?? ''}`.trim()
        : kind === 'break-glass' ? 'the break-glass'
        : text(`${kind}_name`) ?? `a ${kind}`;
      seen.set(value, { href: `/console/${PAGE_OF[kind]}/${value}`, label });
    }
  }
  return [...seen.values()];
}

/** Whether an event is part of a break-glass: its own types, and the request the break-glass rule made and approved. */
const isBreakGlass = (event: Schema<'Event'>) =>
  event.event_type.startsWith('BREAK_GLASS_') || (event.sub_events ?? []).some((sub) => sub.break_glass === true);

/** An event type in words: "Requests created", "Access review items decided". */
const eventWords = (type: string) => inWords(type.replace(/^UAR_REVIEWS_/, 'ACCESS_REVIEW_ITEMS_').replace(/^UARS?_/, 'ACCESS_REVIEWS_'));

export function AuditTrail(props: { me: Me }) {
  const initial = Object.fromEntries(new URLSearchParams(location.search));
  const [draft, setDraft] = useState<Record<string, string>>(initial);
  const [filters, setFilters] = useState<Record<string, string>>(initial);
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const loaded = useLoad(async () => {
    const page = await get('/events', { query: { ...filters, cursor, page_size: 50 } });
    await learnNames(page.results ?? []);
    return page;
  }, [JSON.stringify(filters), cursor]);
  const [unmatched, setUnmatched] = useState<string | undefined>(undefined);
  const pick = (name: string, label: string) => (id: string | undefined) => {
    setDraft((d) => ({ ...d, [name]: id ?? '' }));
    setUnmatched((u) => (id === undefined ? label : u === label ? undefined : u));
  };
  const apply = (e: Event) => {
    e.preventDefault();
    if (unmatched) return;
    setCursors([]);
    const chosen = Object.fromEntries(Object.entries(draft).filter(([, v]) => v.trim() !== ''));
    setFilters(chosen);
    history.replaceState(null, '', `/console/events?${new URLSearchParams(chosen)}`);
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
          <Picker id="f-actor" label="Who did it" hint="Type a name or email, then choose." initialId={initial.actor_filter} find={findPeople} onPick={pick('actor_filter', 'Who did it')} />
          <Picker id="f-object" label="About a person or item" hint="A person, resource or group, by name." initialId={initial.object_filter}
            find={async (term) => [...(await findPeople(term)), ...(await findItems(term))]} onPick={pick('object_filter', 'About a person or item')} />
          {FILTERS.map(([name, label, type]) => (
            <div class="field" key={name}>
              <label for={`f-${name}`}>{label}</label>
              <input id={`f-${name}`} type={type as string as "text"} value={draft[name] ?? ''} onInput={(e) => setDraft({ ...draft, [name]: e.currentTarget.value })} />
            </div>
          ))}
          <button type="submit" class="primary">Filter</button>
        </form>
        {unmatched && <p class="error" role="alert">{unmatched}: choose one of the suggestions, or empty the field.</p>}
        <p class="hint">Export as JSON Lines: this page, or every event the filters match (up to 10,000). The whole verifiable trail: <code>gatehouse audit export</code>.</p>
        <div class="actions">
          <button type="button" onClick={() => download(loaded.data?.results ?? [], 'gatehouse-events-page.jsonl')}>Export this page</button>
          <button type="button" disabled={exporting.busy} onClick={exportAll}>{exporting.busy ? 'Exporting…' : 'Export all matching events'}</button>
        </div>
        <Problem message={exporting.error} />
        <Pending loaded={loaded}>{({ results = [], next }) => (
          <>
            <div class="table-wrap">
              <table class="stack">
                <caption>Events, newest first</caption>
                <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Who</th><th scope="col">About</th></tr></thead>
                <tbody>{results.map((event) => (
                  <tr key={event.event_id}>
                    <td data-label="When">{when(event.created_at)}</td>
                    <td data-label="What">{eventWords(event.event_type)}{isBreakGlass(event) && <> <span class="badge badge-break-glass">Break-glass</span></>}</td>
                    <td data-label="Who"><Link href={`/console/users/${event.actor_user_id}`}>{event.actor_name}</Link>{event.api_token_name ? ` via ${event.api_token_name}` : ''}</td>
                    <td data-label="About">{namedIn(event).map((named) => <Link key={named.href} href={named.href} class="chip">{named.label}</Link>)}</td>
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

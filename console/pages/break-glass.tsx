// Break-glass in the console (docs/break-glass.md): the item page's Break glass action behind a dialog
// that says who will be told and that it will be reviewed; a break-glass's own page with its review;
// Home's sections (the reviews waiting for an owner, every break-glass of the last 7 days for admins).
import { useEffect, useRef, useState } from 'preact/hooks';
import { all, get, post, put, type Me, type Schema } from '../api.ts';
import { findItems, findPeople, labelOf, Picker } from '../pick.tsx';
import { isAdmin, Link, minutes, navigate, Page, Pending, Problem, useAction, useLoad, when } from '../ui.tsx';

export type BreakGlassView = Schema<'BreakGlass'>;
type Item = Schema<'Resource'> | Schema<'Group'>;

/** What a break-glass is about, in words: "Payroll database (read-only)". */
const itemWords = (bg: BreakGlassView) => `${bg.item_name}${bg.access_level_name ? ` (${bg.access_level_name})` : ''}`;

/** A review state in words. */
export const reviewWords = (state: BreakGlassView['state']) =>
  state === 'OPEN' ? 'waiting for review' : state === 'JUSTIFIED' ? 'justified' : 'not justified';

/**
 * Whether `me` may break glass on `item`: named in break_glass_user_ids, or holding one of the groups of
 * break_glass_group_ids (`myGroups`: the groups they hold). The server decides; this only shows the action.
 */
export function mayBreakGlass(item: Item, userId: string, myGroups: string[]): boolean {
  if ((item.break_glass_user_ids ?? []).includes(userId)) return true;
  const named = new Set(item.break_glass_group_ids ?? []);
  return myGroups.some((id) => named.has(id));
}

/**
 * What the item page shows of break-glass: the Break glass action for someone the item names, and, for a
 * user of the item's admin owner who is not an admin (admins have the settings page), who may.
 */
export function BreakGlassOnItem(props: { me: Me; kind: 'resource' | 'group'; item: Item; id: string; owner: Schema<'Owner'> | undefined; onSaved: () => void }) {
  const { me, kind, item, id, owner } = props;
  const loaded = useLoad(async () => {
    const [groups, ownerUsers] = await Promise.all([
      (item.break_glass_group_ids ?? []).length === 0 ? Promise.resolve([])
        : all('/groups/users/{user_id}', { path: { user_id: me.user.user_id } }).then((rows) => rows.map((g) => g.group_id)),
      !isAdmin(me) && owner ? get('/owners/{owner_id}/users', { path: { owner_id: owner.owner_id } }).then((r) => r.users, () => []) : Promise.resolve([]),
    ]);
    return { eligible: mayBreakGlass(item, me.user.user_id, groups), owns: ownerUsers.some((u) => u.user_id === me.user.user_id) };
  }, [id, JSON.stringify(item.break_glass_user_ids), JSON.stringify(item.break_glass_group_ids)]);
  if (!loaded.data) return null;
  return (
    <>
      {loaded.data.eligible && <BreakGlassAction kind={kind} item={item} id={id} ownerName={owner?.name} hasChannel={Boolean(owner?.reviewer_message_channel_id)} />}
      {loaded.data.owns && <BreakGlassSettings kind={kind} item={item} id={id} onSaved={props.onSaved} />}
    </>
  );
}

/** A list of people or groups chosen by name: each with a Remove button, and a picker adding one. */
function ChosenList(props: { idPrefix: string; legend: string; addLabel: string; ids: string[]; find: (term: string) => Promise<{ id: string; label: string }[]>; onChange: (ids: string[]) => void }) {
  const [labels, setLabels] = useState<Record<string, string>>({});
  const [adding, setAdding] = useState<string | undefined>(undefined);
  useEffect(() => {
    for (const id of props.ids) if (labels[id] === undefined) void labelOf(id).then((label) => setLabels((l) => ({ ...l, [id]: label })));
  }, [props.ids.join(',')]);
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.ids.length === 0 ? <p class="hint">Nobody yet.</p> : (
        <ul class="chosen">{props.ids.map((id) => (
          <li key={id}>{labels[id] ?? id} <button type="button" onClick={() => props.onChange(props.ids.filter((x) => x !== id))}>Remove {labels[id] ?? 'this one'}</button></li>
        ))}</ul>
      )}
      <Picker id={`${props.idPrefix}-add`} label={props.addLabel} hint="Type a name, then choose." find={props.find} onPick={setAdding} />
      <button type="button" disabled={!adding} onClick={() => {
        if (adding && !props.ids.includes(adding)) props.onChange([...props.ids, adding]);
      }}>{props.addLabel}: add</button>
    </fieldset>
  );
}

/** Who may break glass on the item, and for how long at most: its owners' (and admins') form. */
export function BreakGlassSettings(props: { kind: 'resource' | 'group'; item: Item; id: string; onSaved: () => void }) {
  const { kind, item, id } = props;
  const [users, setUsers] = useState<string[]>(item.break_glass_user_ids ?? []);
  const [groups, setGroups] = useState<string[]>(item.break_glass_group_ids ?? []);
  const [cap, setCap] = useState(item.break_glass_max_minutes ?? 60);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const templated = Boolean(item.configuration_template_id);
  const save = async (e: Event) => {
    e.preventDefault();
    setSaved(false);
    const body = { break_glass_user_ids: users, break_glass_group_ids: groups, break_glass_max_minutes: cap };
    if (await action.run(() => kind === 'resource'
      ? put('/resources/{resource_id}/break-glass', { path: { resource_id: id }, body })
      : put('/groups/{group_id}/break-glass', { path: { group_id: id }, body }))) {
      setSaved(true);
      props.onSaved();
    }
  };
  return (
    <form onSubmit={save} aria-labelledby="break-glass-settings">
      <h2 id="break-glass-settings">Who may break glass</h2>
      <p>In an emergency, these people (and the members of these groups) may give themselves {item.name} at once, without an approval. Everyone in its team and every administrator is told, and the team reviews it afterwards.</p>
      {templated ? (
        <p>Its configuration template says who may: {(item.break_glass_user_ids ?? []).length} {(item.break_glass_user_ids ?? []).length === 1 ? 'person' : 'people'} and
          {' '}{(item.break_glass_group_ids ?? []).length} {(item.break_glass_group_ids ?? []).length === 1 ? 'group' : 'groups'}, for at most {item.break_glass_max_minutes ?? 60} minutes.
          {' '}Configuration templates are changed through the API (<code>PUT /v1/configuration-templates</code>); the console has no page for them yet.</p>
      ) : (
        <>
          <ChosenList idPrefix="bg-people" legend="People" addLabel="Add a person" ids={users} find={findPeople} onChange={setUsers} />
          <ChosenList idPrefix="bg-groups" legend="Groups" addLabel="Add a group" ids={groups} find={async (term) => (await findItems(term)).filter((c) => c.label.endsWith('(group)'))} onChange={setGroups} />
          <div class="field">
            <label for="bg-cap">Longest break-glass, in minutes (1 to 240)</label>
            <input id="bg-cap" type="number" required min={1} max={240} value={cap} onInput={(e) => setCap(Number(e.currentTarget.value))} />
          </div>
          <button type="submit" disabled={action.busy}>Save who may break glass</button>
          {saved && <p role="status">Saved.</p>}
          <Problem message={action.error} />
        </>
      )}
    </form>
  );
}

/** The item page's Break glass action: a button opening the dialog, for someone the item names. */
export function BreakGlassAction(props: { kind: 'resource' | 'group'; item: Item; id: string; ownerName: string | undefined; hasChannel: boolean }) {
  const { kind, item, id } = props;
  const cap = item.break_glass_max_minutes ?? 60;
  const levels = item.access_levels ?? [];
  const [open, setOpen] = useState(false);
  const [level, setLevel] = useState('');
  const [reason, setReason] = useState('');
  const [duration, setDuration] = useState(cap);
  const [incident, setIncident] = useState('');
  const action = useAction();
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) ref.current?.showModal();
  }, [open]);
  const close = () => {
    ref.current?.close();
    setOpen(false);
    action.setError(undefined);
    setTimeout(() => opener.current?.focus(), 0);
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    let made: BreakGlassView | undefined;
    const ok = await action.run(async () => {
      made = await post('/break-glass', { body: {
        ...(kind === 'resource' ? { resource_id: id } : { group_id: id }),
        access_level_remote_id: level, reason, duration_minutes: duration,
        ...(incident.trim() !== '' && { incident_id: incident.trim() }),
      } });
    });
    if (ok && made) {
      ref.current?.close();
      navigate(`/console/break-glass/${made.id}`);
    }
  };
  const told = `${props.ownerName ? `everyone in ${props.ownerName}` : 'the item\'s owners'}, every administrator${props.hasChannel ? ' and the team\'s reviewer channel' : ''}`;
  return (
    <section aria-labelledby="break-glass" class="break-glass">
      <h2 id="break-glass">Break glass</h2>
      <p>In an emergency, when nobody can approve a request, you may give yourself {item.name} at once, for up to {minutes(cap)}.</p>
      <button type="button" class="danger" ref={opener} onClick={() => setOpen(true)}>Break glass on {item.name}</button>
      {open && (
        <dialog ref={ref} class="confirm" aria-modal="true" aria-labelledby="bg-title" aria-describedby="bg-body"
          onCancel={(e) => {
            e.preventDefault();
            if (!action.busy) close();
          }}>
          <h2 id="bg-title">Break glass on {item.name}?</h2>
          <div id="bg-body">
            <p>You get this access <strong>now, without an approval</strong>. Told at once: {told}.</p>
            <p>The owners review it afterwards. If they find it not justified, it ends at once. It cannot be extended: when it ends, break glass again.</p>
          </div>
          <form onSubmit={submit}>
            {levels.length > 1 && (
              <div class="field">
                <label for="bg-level">Access level</label>
                <select id="bg-level" value={level} onChange={(e) => setLevel(e.currentTarget.value)}>
                  {levels.map((l) => <option key={l.access_level_remote_id} value={l.access_level_remote_id}>{l.access_level_name || (kind === 'group' ? 'Member' : 'Default')}</option>)}
                </select>
              </div>
            )}
            <div class="field">
              <label for="bg-reason">Why (at least 20 characters)</label>
              <textarea id="bg-reason" required minLength={20} maxLength={2000} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
            </div>
            <div class="field">
              <label for="bg-minutes">For how many minutes (at most {cap})</label>
              <input id="bg-minutes" type="number" required min={1} max={cap} value={duration} onInput={(e) => setDuration(Number(e.currentTarget.value))} />
            </div>
            <div class="field">
              <label for="bg-incident">Incident (optional, e.g. a PagerDuty incident id)</label>
              <input id="bg-incident" type="text" maxLength={200} value={incident} onInput={(e) => setIncident(e.currentTarget.value)} />
            </div>
            <Problem message={action.error} />
            <div class="actions">
              <button type="button" onClick={close} disabled={action.busy}>Cancel</button>
              <button type="submit" class="danger" disabled={action.busy} aria-busy={action.busy}>{action.busy ? 'Working…' : 'Break glass now'}</button>
            </div>
          </form>
        </dialog>
      )}
    </section>
  );
}

/** A break-glass's page: who, what, why, until when, and its review (with the form, for whoever may decide it). */
export function BreakGlassPage(props: { me: Me; id: string }) {
  const { id } = props;
  const loaded = useLoad(async () => {
    const [bg, waiting] = await Promise.all([
      get('/break-glass/{id}', { path: { id } }),
      get('/break-glass', { query: { awaiting_my_review: true, page_size: 1000 } }),
    ]);
    const [person, reviewer] = await Promise.all([
      get('/users/{user_id}', { path: { user_id: bg.user_id } }).then((u) => u.full_name, () => 'a former user'),
      bg.reviewed_by_user_id ? get('/users/{user_id}', { path: { user_id: bg.reviewed_by_user_id } }).then((u) => u.full_name, () => 'a former user') : Promise.resolve(undefined),
    ]);
    return { bg, person, reviewer, mayReview: waiting.results.some((w) => w.id === id) };
  }, [id]);
  const [decision, setDecision] = useState<'JUSTIFIED' | 'NOT_JUSTIFIED' | ''>('');
  const [comment, setComment] = useState('');
  const action = useAction();
  const review = async (e: Event) => {
    e.preventDefault();
    if (decision === '') {
      action.setError('Choose justified or not justified.');
      return;
    }
    if (await action.run(() => post('/break-glass/{id}/review', { path: { id }, body: { decision, comment } }))) loaded.reload();
  };
  return (
    <Pending loaded={loaded}>{({ bg, person, reviewer, mayReview }) => (
      <Page title={`Break-glass on ${bg.item_name}`}>
        <p class="badge badge-break-glass">Break-glass: {reviewWords(bg.state)}</p>
        <dl class="facts">
          <dt>Who</dt><dd>{person}</dd>
          <dt>Access</dt><dd><Link href={`/console/${bg.resource_id ? 'resources' : 'groups'}/${bg.resource_id ?? bg.group_id}`}>{itemWords(bg)}</Link></dd>
          <dt>When</dt><dd>{when(bg.started_at)}, for {minutes(bg.duration_minutes)}</dd>
          <dt>{bg.active ? 'Ends' : 'Ended'}</dt><dd>{when(bg.ends_at)}</dd>
          <dt>Why</dt><dd>{bg.reason}</dd>
          {bg.incident_id && <><dt>Incident</dt><dd>{bg.incident_id}</dd></>}
          {(isAdmin(props.me) || bg.user_id === props.me.user.user_id) && <><dt>Request</dt><dd><Link href={`/console/requests/${bg.request_id}`}>The request the break-glass rule approved</Link></dd></>}
          {bg.state !== 'OPEN' && <><dt>Review</dt><dd>{reviewWords(bg.state)} by {reviewer}, {when(bg.reviewed_at)}: {bg.review_comment}</dd></>}
        </dl>
        {bg.state === 'OPEN' && mayReview && (
          <form onSubmit={review} aria-labelledby="review-title">
            <h2 id="review-title">Your review</h2>
            <fieldset>
              <legend>Was breaking glass justified?</legend>
              <label class="choice"><input type="radio" name="decision" value="JUSTIFIED" checked={decision === 'JUSTIFIED'} onChange={() => setDecision('JUSTIFIED')} /> Justified</label>
              <label class="choice"><input type="radio" name="decision" value="NOT_JUSTIFIED" checked={decision === 'NOT_JUSTIFIED'} onChange={() => setDecision('NOT_JUSTIFIED')} /> Not justified{bg.active ? ': their access ends now' : ''}</label>
            </fieldset>
            <div class="field">
              <label for="review-comment">Comment (why)</label>
              <textarea id="review-comment" required maxLength={2000} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
            </div>
            <Problem message={action.error} />
            <button type="submit" class="primary" disabled={action.busy}>{action.busy ? 'Saving…' : 'Record the review'}</button>
          </form>
        )}
        {bg.state === 'OPEN' && !mayReview && <p>Waiting for the item's owners (or an administrator) to review it.{bg.user_id === props.me.user.user_id ? ' Nobody reviews their own break-glass.' : ''}</p>}
      </Page>
    )}</Pending>
  );
}

/** Home's break-glass sections: the reviews waiting for the viewer; for admins, every break-glass of the last 7 days. */
export function BreakGlassOnHome(props: { me: Me }) {
  const admin = isAdmin(props.me);
  const loaded = useLoad(async () => {
    const since = new Date(Date.now() - 7 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const [waiting, recent] = await Promise.all([
      get('/break-glass', { query: { awaiting_my_review: true, page_size: 50 } }),
      admin ? get('/break-glass', { query: { start_date_filter: since, page_size: 100 } }) : Promise.resolve(undefined),
    ]);
    return { waiting: waiting.results, recent: recent?.results };
  }, [props.me.user.user_id]);
  const line = (bg: BreakGlassView) => (
    <li key={bg.id}><Link href={`/console/break-glass/${bg.id}`}>{itemWords(bg)}</Link> — {when(bg.started_at)}, {minutes(bg.duration_minutes)}, {reviewWords(bg.state)}{bg.active ? ' (still active)' : ''}</li>
  );
  return (
    <Pending loaded={loaded}>{({ waiting, recent }) => (
      <>
        {waiting.length > 0 && (
          <section aria-labelledby="break-glass-reviews">
            <h2 id="break-glass-reviews">Break-glass to review</h2>
            <ul>{waiting.map(line)}</ul>
          </section>
        )}
        {recent && (
          <section aria-labelledby="break-glass-recent">
            <h2 id="break-glass-recent">Break-glass in the last 7 days</h2>
            {recent.length === 0 ? <p>Nobody broke glass.</p> : <ul>{recent.map(line)}</ul>}
          </section>
        )}
      </>
    )}</Pending>
  );
}

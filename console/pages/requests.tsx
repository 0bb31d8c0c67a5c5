// Request access (search, items and levels, reason, a duration bounded by the items' maximum, a live
// dry run of who must approve) and one request (items, stages and reviewers by name, comments, decisions).
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, post, type Me, type Schema } from '../api.ts';
import { holdingsOf, waitsFor, type Holding } from './home.tsx';
import { defaultDuration, DURATIONS, durationChoice, durationChoices, isAdmin, Link, messageOf, minutes, navigate, Page, Pending, Problem, propagationWords, requestBounds, StatusBadge, useAction, useLoad, when } from '../ui.tsx';

interface Item {
  kind: 'resource' | 'group';
  id: string;
  name: string;
  levels: { access_level_name: string; access_level_remote_id: string }[];
  maxMinutes: number | undefined;
  /** recommended_duration_minutes: what the item suggests (-1 indefinitely; undefined none). */
  suggestedMinutes: number | undefined;
  /** extensions_duration_in_minutes: how long an extension may ask for (0: the item takes none). */
  extensionMinutes: number;
  level: string;
  /** Said when no level of the item carries access in its connected system (a form then says so). */
  grantsNothing?: string;
}

/**
 * The item with only the levels that carry access in its connected system (GET …/access-levels): a
 * PostgreSQL database's default level grants no role, so it is not offered, and the first level that
 * carries access is chosen. When none does, every level stays and the item says in words that it grants nothing.
 */
async function withCarriedLevels(item: Item): Promise<Item> {
  const answer = item.kind === 'resource'
    ? await get('/resources/{resource_id}/access-levels', { path: { resource_id: item.id } })
    : await get('/groups/{group_id}/access-levels', { path: { group_id: item.id } });
  const carried = answer.access_levels.filter((l) => l.carries_access);
  if (carried.length === 0) {
    return { ...item, grantsNothing: answer.access_levels.find((l) => l.access_level_remote_id === item.level)?.note ?? answer.access_levels[0]?.note };
  }
  if (carried.length === answer.access_levels.length) return item;
  const levels = carried.map(({ access_level_name, access_level_remote_id }) => ({ access_level_name, access_level_remote_id }));
  return { ...item, levels, level: levels.some((l) => l.access_level_remote_id === item.level) ? item.level : levels[0]!.access_level_remote_id };
}

/** The durations a reviewer may grant instead of what was asked: shorter ones (any, for an indefinite request). */
const shorter = (asked: number | undefined): number[] => DURATIONS.filter((d) => asked === undefined || asked === -1 || d < asked);

/** A question an item's request template asks (the dry run's custom_fields). */
type AskedField = Schema<'RequestDryRun'>['custom_fields'][number];

/** The answers as POST /requests takes them: every BOOLEAN (unticked is "false"), the rest when given. */
function answersOf(fields: AskedField[], answers: Record<string, string>) {
  return fields
    .map((f) => ({ name: f.name, type: f.type, value: f.type === 'BOOLEAN' ? (answers[f.name] === 'true' ? 'true' : 'false') : (answers[f.name] ?? '') }))
    .filter((a) => a.type === 'BOOLEAN' || a.value.trim() !== '');
}

/** One question of a request template: a labelled control of its type, its help text and its error. */
function CustomField(props: { field: AskedField; index: number; value: string; error: string | undefined; onChange: (value: string) => void }) {
  const { field, index, value, error } = props;
  const id = `custom-${index}`;
  const describedBy = [field.description && `${id}-help`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const common = { id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined, 'aria-required': field.required || undefined };
  const label = <>{field.name}{field.required && <span class="required"> (required)</span>}</>;
  const control = field.type === 'BOOLEAN'
    ? <input {...common} type="checkbox" checked={value === 'true'} onChange={(e) => props.onChange(e.currentTarget.checked ? 'true' : 'false')} />
    : field.type === 'LONG_TEXT'
      ? <textarea {...common} rows={3} value={value} onInput={(e) => props.onChange(e.currentTarget.value)} />
      : field.type === 'MULTI_CHOICE'
        ? (
          <select {...common} value={value} onChange={(e) => props.onChange(e.currentTarget.value)}>
            <option value="">Choose…</option>
            {(field.metadata?.multi_choice_data?.options ?? []).map((o) => <option key={o} value={o}>{o}</option>)}
          </select>
        )
        : <input {...common} type="text" value={value} onInput={(e) => props.onChange(e.currentTarget.value)} />;
  return (
    <div class={field.type === 'BOOLEAN' ? 'field check' : 'field'}>
      {field.type === 'BOOLEAN' ? <>{control}<label for={id}>{label}</label></> : <><label for={id}>{label}</label>{control}</>}
      {field.description && <p class="hint" id={`${id}-help`}>{field.description}</p>}
      {error && <p class="error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

/** What the chosen items suggest: the shortest positive suggestion, else indefinitely when every one says so. */
function suggestionOf(items: Item[]): number | undefined {
  const given = items.map((i) => i.suggestedMinutes).filter((m): m is number => m !== undefined);
  const positive = given.filter((m) => m > 0);
  if (positive.length > 0) return Math.min(...positive);
  return given.length > 0 && given.length === items.length ? -1 : undefined;
}

/** The shortest maximum any chosen item's configuration allows (undefined: no maximum). */
function maxOf(items: Item[]): number | undefined {
  const bounds = items.map((i) => i.maxMinutes).filter((m): m is number => typeof m === 'number' && m > 0);
  return bounds.length === 0 ? undefined : Math.min(...bounds);
}

function toItem(raw: Schema<'Resource'> | Schema<'Group'>, level = ''): Item {
  const bounds = requestBounds(raw);
  const [kind, id] = 'resource_id' in raw ? ['resource' as const, raw.resource_id] : ['group' as const, raw.group_id];
  return {
    kind,
    id,
    name: raw.name ?? id,
    levels: raw.access_levels?.length ? raw.access_levels : [{ access_level_name: 'Default', access_level_remote_id: '' }],
    maxMinutes: bounds.max,
    suggestedMinutes: bounds.suggested,
    extensionMinutes: typeof raw.extensions_duration_in_minutes === 'number' ? raw.extensions_duration_in_minutes : 0,
    level,
  };
}

export function NewRequest(_props: { me: Me }) {
  const params = new URLSearchParams(location.search);
  // From My access: an extension of what the person holds (docs/console.md "Extending access").
  const extending = params.get('extend') === '1';
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<Item[]>([]);
  const [chosen, setChosen] = useState<Item[]>([]);
  const [reason, setReason] = useState('');
  // What the person chose; until they choose, the items' suggested duration (else a day) is preselected.
  const [duration, setDuration] = useState<number | undefined>(undefined);
  const [preview, setPreview] = useState<Schema<'RequestDryRun'> | undefined>(undefined);
  const [previewError, setPreviewError] = useState<string | undefined>(undefined);
  // The questions the chosen items' request templates ask (from the dry run), kept while a preview fails.
  const [fields, setFields] = useState<AskedField[]>([]);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const action = useAction();

  // An item named in the address (from My access, "extend") is chosen at once.
  useEffect(() => {
    const resourceId = params.get('resource_id');
    const groupId = params.get('group_id');
    const level = params.get('access_level_remote_id') ?? '';
    if (resourceId) get('/resources/{resource_id}', { path: { resource_id: resourceId } }).then((r) => withCarriedLevels(toItem(r, level))).then((item) => setChosen([item]), (e) => action.setError(messageOf(e)));
    else if (groupId) get('/groups/{group_id}', { path: { group_id: groupId } }).then((g) => withCarriedLevels(toItem(g, level))).then((item) => setChosen([item]), (e) => action.setError(messageOf(e)));
  }, []);

  useEffect(() => {
    const term = search.trim();
    if (term.length < 1) return setFound([]);
    const timer = setTimeout(async () => {
      try {
        const [resources, groups] = await Promise.all([
          get('/resources', { query: { resource_name: term, page_size: 20 } }),
          get('/groups', { query: { group_name: term, page_size: 20 } }),
        ]);
        setFound([...(resources.results ?? []).map((r) => toItem(r)), ...(groups.results ?? []).map((g) => toItem(g))]);
      } catch (err) {
        action.setError(messageOf(err));
      }
    }, 250);
    return () => clearTimeout(timer);
  }, [search]);

  const extended = extending && chosen.length === 1 ? chosen[0]! : undefined;
  const bound = maxOf(chosen);
  const max = extended && extended.extensionMinutes > 0 ? Math.min(bound ?? extended.extensionMinutes, extended.extensionMinutes) : bound;
  const suggested = suggestionOf(chosen);
  const choices = durationChoices(max, suggested);
  const fits = (d: number) => max === undefined || (d !== -1 && d <= max);
  const effective = duration !== undefined && fits(duration) ? duration : defaultDuration(max, suggested);
  const body = () => ({
    resources: chosen.filter((i) => i.kind === 'resource').map((i) => ({ id: i.id, access_level_remote_id: i.level })),
    groups: chosen.filter((i) => i.kind === 'group').map((i) => ({ id: i.id, access_level_remote_id: i.level })),
    reason: reason.trim() || 'preview',
    duration_minutes: effective,
    custom_metadata: answersOf(fields, answers),
  });

  // The live dry run: who must approve, and why, for what is chosen now.
  useEffect(() => {
    if (chosen.length === 0) {
      setFields([]);
      return setPreview(undefined);
    }
    const timer = setTimeout(() => {
      post('/requests', { body: body(), query: { dry_run: true } }).then((answer) => {
        // With dry_run the answer is the dry run (a request's id otherwise).
        const dryRun = 'dry_run' in answer ? answer : undefined;
        setPreview(dryRun);
        setFields(dryRun?.custom_fields ?? []);
        setPreviewError(undefined);
      }, (err: unknown) => {
        setPreview(undefined);
        setPreviewError(messageOf(err));
      });
    }, 200);
    return () => clearTimeout(timer);
  }, [chosen, effective]);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (reason.trim() === '') return action.setError('Say why you need this access.');
    const sent = { ...body(), reason: reason.trim() };
    setFieldErrors({});
    let id = '';
    if (await action.run(async () => {
      try {
        const answer = await post('/requests', { body: sent });
        if ('id' in answer) id = answer.id;
      } catch (err) {
        // Put each answer's problem beside its question too (custom_metadata.N is the N-th answer sent).
        if (err instanceof ApiError) {
          const byField: Record<string, string> = {};
          for (const d of err.details) {
            const n = /^custom_metadata\.(\d+)/.exec(d.path)?.[1];
            const answer = n === undefined ? undefined : sent.custom_metadata[Number(n)];
            if (answer) byField[answer.name] = d.message;
            if (d.path === 'custom_metadata') for (const f of fields) if (f.required && !sent.custom_metadata.some((a) => a.name === f.name)) byField[f.name] = 'Answer this: it is required.';
          }
          setFieldErrors(byField);
        }
        throw err;
      }
    })) navigate(`/console/requests/${id}`);
  };

  const has = (item: Item) => chosen.some((c) => c.kind === item.kind && c.id === item.id);
  return (
    <Page title="Request access">
      <form onSubmit={submit} class="stack">
        <div class="field">
          <label for="search">Find a resource or group</label>
          <input id="search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} autocomplete="off" />
        </div>
        {found.length > 0 && (
          <ul class="results" aria-label="Search results">
            {found.map((item) => (
              <li key={`${item.kind}${item.id}`}>
                <span>{item.name} <small>({item.kind})</small></span>
                <button type="button" disabled={has(item)} onClick={() => withCarriedLevels(item).then((ready) => setChosen((now) => [...now, ready]), (e) => action.setError(messageOf(e)))}>{has(item) ? 'Added' : `Add ${item.name}`}</button>
              </li>
            ))}
          </ul>
        )}
        <fieldset>
          <legend>What you are asking for</legend>
          {chosen.length === 0 ? <p>Nothing yet: search above and add items.</p> : (
            <ul class="chosen">
              {chosen.map((item, i) => (
                <li key={`${item.kind}${item.id}`}>
                  <span>{item.name}</span>
                  <label for={`level-${i}`}>Level for {item.name}</label>
                  <select id={`level-${i}`} value={item.level} onChange={(e) => setChosen(chosen.map((c, j) => (j === i ? { ...c, level: e.currentTarget.value } : c)))}>
                    {item.levels.map((l) => <option key={l.access_level_remote_id} value={l.access_level_remote_id}>{l.access_level_name || "Default"}</option>)}
                  </select>
                  {item.grantsNothing && <p class="notice level-note">{item.grantsNothing}</p>}
                  <button type="button" onClick={() => setChosen(chosen.filter((_, j) => j !== i))}>Remove {item.name}</button>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
        <div class="field">
          <label for="duration">For how long</label>
          <select id="duration" value={effective} onChange={(e) => setDuration(Number(e.currentTarget.value))}>
            {choices.map((d) => <option key={d} value={d}>{durationChoice(d, max, suggested)}</option>)}
            {max === undefined && <option value={-1}>{durationChoice(-1, max, suggested)}</option>}
          </select>
          {extended && extended.extensionMinutes > 0 && <p class="notice">Extending your access to {extended.name}: a new request, reviewed as the item says, for at most {minutes(max)} (its extension duration).</p>}
          {extended && extended.extensionMinutes === 0 && <p class="notice">{extended.name} takes no extensions: this is a new request for it (a renewal), within its longest grant.</p>}
          {max !== undefined && !(extended && extended.extensionMinutes > 0) && <p class="hint">The items you chose allow at most {minutes(max)}.</p>}
          {suggested !== undefined && fits(suggested) && <p class="hint">{chosen.length === 1 ? `${chosen[0]!.name} suggests` : 'The items suggest'} {minutes(suggested)}.</p>}
        </div>
        <div class="field">
          <label for="reason">Why you need it</label>
          <textarea id="reason" rows={3} value={reason} onInput={(e) => setReason(e.currentTarget.value)} required />
        </div>
        {fields.length > 0 && (
          <fieldset>
            <legend>{new Set(fields.map((f) => f.request_template_id)).size === 1 ? 'Asked by the request template' : 'Asked by the request templates'} of {chosen.length === 1 ? chosen[0]!.name : 'the items'}</legend>
            {fields.map((field, i) => (
              <CustomField key={field.name} field={field} index={i} value={answers[field.name] ?? ''} error={fieldErrors[field.name]}
                onChange={(value) => setAnswers({ ...answers, [field.name]: value })} />
            ))}
          </fieldset>
        )}
        <section aria-labelledby="preview-title" aria-live="polite" class="preview">
          <h2 id="preview-title">Who must approve</h2>
          {previewError && <p class="error">{previewError}</p>}
          {!preview && !previewError && <p>{chosen.length === 0 ? 'Add an item to see who will review the request.' : 'Working out who must approve…'}</p>}
          {preview && (
            <>
              {preview.would_be_approved_at_once && <p><strong>Approved at once</strong>: no review needed.</p>}
              {preview.items.map((item) => (
                <div key={`${item.resource_id ?? item.group_id}${item.access_level_remote_id}`} class="preview-item">
                  <h3>{item.name} ({item.access_level_name || "default level"})</h3>
                  {item.warning && <p class="notice">{item.warning}</p>}
                  {item.configuration.matched_group_id && <p class="hint">The item's rules for members of one of your groups apply.</p>}
                  {item.auto_approved ? <p>Approved automatically.</p> : (
                    <ol>{item.stages.map((stage) => (
                      <li key={stage.stage}>Stage {stage.stage} ({stage.operator === 'AND' ? 'all must approve' : 'any one approves'}):{' '}
                        {stage.reviewers.length === 0 ? 'no reviewer (an admin decides)' : stage.reviewers.map((r) => `${r.full_name} — ${r.why}`).join('; ')}
                      </li>
                    ))}</ol>
                  )}
                </div>
              ))}
            </>
          )}
        </section>
        <Problem message={action.error} />
        <button type="submit" class="primary" disabled={action.busy || chosen.length === 0}>Send request</button>
      </form>
    </Page>
  );
}

/** Why the on-call rotation approved the item with this id, when it did (requested_items_list[].approval_reason). */
const itemReason = (request: Schema<'Request'>, itemId: string): string | undefined =>
  (request.requested_items_list ?? []).find((i) => (i.resource_id ?? i.group_id) === itemId)?.approval_reason;

type RequestedItem = NonNullable<Schema<'Request'>['requested_items_list']>[number];

/** The requester's holding of one requested item at its level, if they hold it now. */
const holdingOf = (item: RequestedItem, holdings: Holding[]): Holding | undefined =>
  holdings.find((h) => (h.kind === 'resource' ? h.id === item.resource_id : h.id === item.group_id) && h.levelId === (item.access_level_remote_id ?? ''));

/** Where an approved item's access stands, in words: in effect, on its way to the system, or not held now. */
function accessWords(holding: Holding | undefined): string {
  if (!holding) return 'not held now (it ended or was taken away)';
  return propagationWords(holding.propagation);
}

export function RequestPage(props: { me: Me; id: string }) {
  const me = props.me.user;
  const loaded = useLoad(async () => {
    const request = await get('/requests/{id}', { path: { id: props.id } });
    const [requester, holdings] = await Promise.all([
      get('/users/{user_id}', { path: { user_id: request.requester_id } }).catch(() => undefined),
      // Once approved, whether the access reached the system: the requester reads their own, an admin anyone's.
      request.status === 'APPROVED' && (request.requester_id === me.user_id || isAdmin(props.me))
        ? holdingsOf(request.requester_id).catch(() => undefined) : Promise.resolve(undefined),
    ]);
    return { request, requester, holdings };
    // Not settled while it waits for a decision or an approved item is still being carried to its system:
    // the page looks again by itself (issue 41.5), so nobody reloads to see it decided or in effect.
  }, [props.id], ({ request, holdings }) => request.status !== 'PENDING'
    && !(request.requested_items_list ?? []).some((item) => holdingOf(item, holdings ?? [])?.propagation === 'PENDING'));
  const [comment, setComment] = useState('');
  const [grantFor, setGrantFor] = useState(0); // 0: as asked
  const action = useAction();
  const approval = (level: 'REGULAR' | 'ADMIN') => ({ level, ...(comment.trim() && { comment: comment.trim() }), ...(grantFor > 0 && { duration_minutes: grantFor }) });
  const path = { id: props.id };
  const act = (send: () => Promise<unknown>) => async () => {
    if (await action.run(send)) {
      setComment('');
      loaded.reload();
    }
  };
  return (
    <Page title="Access request">
      <Pending loaded={loaded}>{({ request, requester, holdings }) => {
        const reviewer = waitsFor(request, me.user_id);
        const pending = request.status === 'PENDING';
        const mine = request.requester_id === me.user_id;
        return (
          <>
            <p><StatusBadge status={request.status} /> Asked by {requester ? <Link href={`/console/users/${requester.user_id}`}>{requester.full_name}</Link> : request.requester_id} on {when(request.created_at)}, for {minutes(request.duration_minutes)}{request.requested_duration_minutes !== undefined && <> (shortened by a reviewer from {minutes(request.requested_duration_minutes)})</>}.</p>
            {request.approval_reason && <p class="notice" role="status"><strong>Approved at once: {request.approval_reason.replace(/^approved because /, '')}.</strong> The access ends no later than that.</p>}
            <p><strong>Reason:</strong> {request.reason}</p>
            {(request.custom_fields_responses ?? []).length > 0 && (
              <dl class="facts">{request.custom_fields_responses!.map((f) => (
                <Fragment key={f.field_name}><dt>{f.field_name}</dt><dd>{f.field_type === 'BOOLEAN' ? (f.field_value === true ? 'Yes' : 'No') : String(f.field_value)}</dd></Fragment>
              ))}</dl>
            )}
            <h2>Items</h2>
            <ul>{(request.requested_items_list ?? []).map((i) => (
              <li key={`${i.resource_id ?? i.group_id}${i.access_level_name}`}>
                <Link href={i.resource_id ? `/console/resources/${i.resource_id}` : `/console/groups/${i.group_id}`}>{i.name}</Link> ({i.access_level_name || 'Default'})
                {/* An item the on-call rotation approved in a request that also waits for reviewers (docs/on-call.md). */}
                {!request.approval_reason && i.approval_reason && (i.approval_reason.startsWith('not granted')
                  ? <>: <strong>not granted</strong> — {i.approval_reason.replace(/^not granted: /, '')}.</>
                  : <>: needs no review, {i.approval_reason}; that access ends no later than that.</>)}
                {holdings && <>: <span class="item-access">{accessWords(holdingOf(i, holdings))}</span></>}
              </li>
            ))}</ul>
            <h2>Review</h2>
            {(request.reviewer_stages ?? []).map((item) => (
              <div key={item.item_name} class="stages">
                <h3>{item.item_name}</h3>
                {item.stages.length === 0 ? <p>{itemReason(request, item.item_id) ? 'No review needed: the on-call rotation approved it.' : 'No reviewers: an admin decides.'}</p> : (
                  <ol>{item.stages.map((stage) => (
                    <li key={stage.stage}>Stage {stage.stage} ({stage.operator === 'AND' ? 'all must approve' : 'any one approves'}):
                      <ul>{stage.reviewers.map((r) => <li key={r.id}>{r.full_name ?? r.id}: {r.status === 'PENDING' && r.decision_needed === false
                        ? <span class="badge badge-canceled">Not needed</span>
                        : <StatusBadge status={r.status} />}</li>)}</ul>
                    </li>
                  ))}</ol>
                )}
              </div>
            ))}
            <h2>Comments</h2>
            {(request.request_comments ?? []).length === 0 ? <p>No comments.</p> : (
              <ul class="comments">{request.request_comments!.map((c) => (
                <li key={c.id ?? c.created_at}><strong>{c.user_full_name ?? c.user_id}</strong> ({when(c.created_at)}): {c.comment}</li>
              ))}</ul>
            )}
            <div class="field">
              <label for="comment">Comment{pending && (reviewer || isAdmin(props.me)) ? ' (needed to deny)' : ''}</label>
              <textarea id="comment" rows={2} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
            </div>
            {pending && (reviewer || isAdmin(props.me)) && !mine && shorter(request.duration_minutes).length > 0 && (
              <div class="field">
                <label for="grant-for">Grant for</label>
                <select id="grant-for" value={grantFor} onChange={(e) => setGrantFor(Number(e.currentTarget.value))} aria-describedby="grant-for-help">
                  <option value={0}>{minutes(request.duration_minutes)}, as asked</option>
                  {shorter(request.duration_minutes).map((d) => <option key={d} value={d}>{minutes(d)}</option>)}
                </select>
                <p class="hint" id="grant-for-help">A reviewer may shorten the access, never lengthen it.</p>
              </div>
            )}
            <Problem message={action.error} />
            <div class="actions">
              <button type="button" disabled={action.busy || comment.trim() === ''} onClick={act(() => post('/requests/{id}/comments', { path, body: { comment: comment.trim() } }))}>Add comment</button>
              {pending && reviewer && <button type="button" class="primary" disabled={action.busy} onClick={act(() => post('/requests/{id}/approve', { path, body: approval('REGULAR') }))}>Approve</button>}
              {pending && (reviewer || isAdmin(props.me)) && !mine && (
                <button type="button" class="danger" disabled={action.busy} onClick={() => (comment.trim() === '' ? action.setError('Write a comment saying why you deny it.') : act(() => post('/requests/{id}/deny', { path, body: { comment: comment.trim(), level: reviewer ? 'REGULAR' : 'ADMIN' } }))())}>Deny</button>
              )}
              {pending && isAdmin(props.me) && !mine && !reviewer && (
                <button type="button" class="override" disabled={action.busy} onClick={act(() => post('/requests/{id}/approve', { path, body: approval('ADMIN') }))}>Approve as admin (override)</button>
              )}
              {pending && mine && <button type="button" disabled={action.busy} onClick={act(() => post('/requests/{id}/cancel', { path }))}>Cancel request</button>}
            </div>
          </>
        );
      }}</Pending>
    </Page>
  );
}

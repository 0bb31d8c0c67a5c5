// Access reviews: admins start one (who reviews, and an explicit choice for unanswered items); every
// reviewer sees the reviews with items assigned to them and decides those items — keep, revoke or
// later, one by one or in bulk; admins decide any item. A revoke ends the access when the review closes
// (a later keep undoes it), or at once in a review started to act instantly; either asks first.
import { useState } from 'preact/hooks';
import { all, get, post, put, type Me, type Schema } from '../api.ts';
import { isAdmin, Link, navigate, Page, Pending, Problem, useAction, useConfirm, useLoad, when } from '../ui.tsx';

/** A review with rows assigned to the signed-in person. */
export type Assignment = Schema<'UARAssignment'>;
type ReviewRow = Schema<'UARItem'>;

type Policy = Schema<'UARReviewerAssignmentPolicyEnum'>;
const POLICIES: [Policy, string][] = [
  ['BY_OWNING_TEAM_ADMIN_ALL', 'every user of the item\'s admin owner'],
  ['BY_OWNING_TEAM_ADMIN', 'one user of the item\'s admin owner, in turn'],
  ['BY_APPROVERS_ALL', 'every reviewer a request for the item would have'],
  ['BY_APPROVERS', 'one reviewer a request for the item would have, in turn'],
  ['BY_MANAGER', 'the person\'s manager'],
  ['MANUALLY', 'me, until I choose others'],
];

/** The reviews with items assigned to the signed-in person, and how many still wait. */
function MyAssignments() {
  const loaded = useLoad(() => all('/uar-assignments'), []);
  return (
    <section aria-labelledby="assigned">
      <h2 id="assigned">Assigned to you</h2>
      <Pending loaded={loaded}>{(mine) => mine.length === 0 ? <p>No access review asks you to review anything.</p> : (
        <ul>{mine.map((a) => (
          <li key={a.uar_id}>
            <Link href={`/console/reviews/${a.uar_id}`}>{a.name}</Link> — {a.closed_at ? `closed ${when(a.closed_at)}` : `${a.unanswered_items} of ${a.assigned_items} item${a.assigned_items === 1 ? '' : 's'} waiting, deadline ${when(a.deadline)}`}
          </li>
        ))}</ul>
      )}</Pending>
    </section>
  );
}

export function Reviews(props: { me: Me }) {
  return (
    <Page title="Access reviews">
      <MyAssignments />
      {isAdmin(props.me) && <AllReviews />}
    </Page>
  );
}

function AllReviews() {
  const loaded = useLoad(() => all('/uars'), []);
  const [name, setName] = useState('');
  const [reviewers, setReviewers] = useState<Policy>('BY_OWNING_TEAM_ADMIN_ALL');
  const [tell, setTell] = useState(true);
  const [deadline, setDeadline] = useState('');
  const [policy, setPolicy] = useState<'' | 'KEEP' | 'REVOKE'>('');
  const [instant, setInstant] = useState(false);
  const action = useAction();
  const start = async (e: Event) => {
    e.preventDefault();
    if (policy === '') return action.setError('Choose what happens to items nobody answers by the deadline.');
    let id = '';
    const ok = await action.run(async () => {
      const uar = await post('/uar', { body: {
        name: name.trim(), reviewer_assignment_policy: reviewers, send_reviewer_assignment_notification: tell,
        deadline: new Date(`${deadline}T23:59:59`).toISOString(), time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC', self_review_allowed: false, instantly_action_reviews: instant,
      } });
      id = uar.uar_id;
      await put('/uar/{uar_id}/policy', { path: { uar_id: id }, body: { unanswered_decision: policy } });
    });
    if (ok) navigate(`/console/reviews/${id}`);
  };
  return (
    <>
      <section aria-labelledby="all-reviews">
        <h2 id="all-reviews">All reviews</h2>
        <Pending loaded={loaded}>{(reviews) => reviews.length === 0 ? <p>No reviews yet.</p> : (
          <ul>{reviews.map((r) => <li key={r.uar_id}><Link href={`/console/reviews/${r.uar_id}`}>{r.name}</Link> — deadline {when(r.deadline)}</li>)}</ul>
        )}</Pending>
      </section>
      <form onSubmit={start} class="stack">
        <h2>Start a review of all access</h2>
        <div class="field"><label for="uar-name">Name</label><input id="uar-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} /></div>
        <div class="field"><label for="uar-deadline">Deadline</label><input id="uar-deadline" type="date" required value={deadline} onInput={(e) => setDeadline(e.currentTarget.value)} /></div>
        <div class="field">
          <label for="uar-reviewers">Who reviews each item</label>
          <select id="uar-reviewers" value={reviewers} onChange={(e) => setReviewers(POLICIES.find(([value]) => value === e.currentTarget.value)?.[0] ?? reviewers)}>
            {POLICIES.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </div>
        <label class="choice"><input type="checkbox" checked={tell} onChange={(e) => setTell(e.currentTarget.checked)} /> Tell each reviewer (by email or Slack, as they chose)</label>
        <fieldset>
          <legend>At the deadline, items nobody answered are</legend>
          <label class="choice"><input type="radio" name="policy" value="KEEP" checked={policy === 'KEEP'} onChange={() => setPolicy('KEEP')} /> kept</label>
          <label class="choice"><input type="radio" name="policy" value="REVOKE" checked={policy === 'REVOKE'} onChange={() => setPolicy('REVOKE')} /> revoked</label>
        </fieldset>
        <label class="choice"><input type="checkbox" checked={instant} onChange={(e) => setInstant(e.currentTarget.checked)} /> Revoke at once when a reviewer decides (otherwise revokes take effect when the review closes, and can be changed until then)</label>
        <Problem message={action.error} />
        <button type="submit" class="primary" disabled={action.busy}>Start review</button>
      </form>
    </>
  );
}

type Decision = 'KEEP' | 'REVOKE' | 'LATER';
const LABEL: Record<Decision, string> = { KEEP: 'Keep', REVOKE: 'Revoke', LATER: 'Later' };

/** Who is asked to review a row, as the admin's table says it. */
function reviewersOf(row: ReviewRow, me: string): string {
  const ids = row.assigned_reviewer_ids;
  if (ids.length === 0) return 'admins';
  const others = ids.filter((id) => id !== me).length;
  if (others === ids.length) return `${others} other${others === 1 ? '' : 's'}`;
  return others === 0 ? 'you' : `you and ${others} other${others === 1 ? '' : 's'}`;
}

/**
 * One review: a reviewer sees the items assigned to them; an admin every item (or only theirs). Each
 * row is decided with its own buttons or selected for a bulk decision; a row of the signed-in person's
 * own access is shown but never decidable by them (the API refuses it too).
 */
export function ReviewPage(props: { me: Me; id: string }) {
  const admin = isAdmin(props.me);
  const myId = props.me.user.user_id;
  const [onlyMine, setOnlyMine] = useState(false);
  const loaded = useLoad(async () => {
    const [uar, items] = await Promise.all([
      get('/uar/{uar_id}', { path: { uar_id: props.id } }),
      get('/uar/{uar_id}/items', { path: { uar_id: props.id }, query: { page_size: 1000, assigned_to_me: admin && onlyMine ? true : undefined } }),
    ]);
    return { uar, items };
  }, [props.id, onlyMine]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const action = useAction();
  const send = (decisions: { uar_item_id: number; decision: Decision }[]) => post('/uar/{uar_id}/decisions', { path: { uar_id: props.id }, body: { decisions } });
  const decided = () => {
    setSelected(new Set());
    loaded.reload();
  };
  const confirm = useConfirm();
  const decide = async (decisions: { uar_item_id: number; decision: Decision }[]) => {
    if (decisions.length === 0) return action.setError('Select items first.');
    const revokes = decisions.filter((d) => d.decision === 'REVOKE');
    if (revokes.length > 0 && loaded.data) {
      // A revoke names what ends, and when: at once for a review that acts instantly, else at its close.
      const { uar, items } = loaded.data;
      const rows = (items.results ?? []).filter((r) => revokes.some((d) => d.uar_item_id === r.uar_item_id));
      const [first] = rows;
      return confirm.ask({
        title: first && rows.length === 1 ? `Revoke ${first.full_name}'s access to ${first.item_name}?` : `Revoke ${rows.length} people's access?`,
        body: (
          <>
            {rows.length > 1 && <ul>{rows.map((r) => <li key={r.uar_item_id}>{r.full_name}: {r.item_name}</li>)}</ul>}
            <p>{uar.instantly_action_reviews
              ? 'This review acts at once: the access ends now, and only a new grant gives it back.'
              : `The access ends when the review closes (${when(uar.deadline)}). Until then you can change your mind: choosing Keep undoes the revoke.`}</p>
          </>
        ),
        confirm: rows.length === 1 ? 'Revoke' : `Revoke ${rows.length}`,
        action: () => send(decisions),
        done: decided,
      });
    }
    if (await action.run(() => send(decisions))) decided();
  };
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  // Admins hand the selected items to someone else (the reviewers they had are replaced).
  const [assignee, setAssignee] = useState('');
  const assign = async (e: Event) => {
    e.preventDefault();
    if (selected.size === 0) return action.setError('Select items first.');
    const ok = await action.run(async () => {
      const user = await get('/user', { query: { email: assignee.trim() } });
      const assignments = [...selected].map((id) => ({ uar_item_id: id, reviewer_ids: [user.user_id] }));
      await post('/uar/{uar_id}/assignments', { path: { uar_id: props.id }, body: { assignments } });
    });
    if (ok) {
      setSelected(new Set());
      setAssignee('');
      loaded.reload();
    }
  };
  return (
    <Pending loaded={loaded}>{({ uar, items }) => {
      const closed = Boolean(items.closed_at);
      const decidable = (row: ReviewRow) => !closed && row.user_id !== myId;
      const rows = items.results;
      const open = rows.filter(decidable);
      const waiting = rows.filter((r) => r.decision === null || r.decision === 'LATER').length;
      // Closing early does now what the deadline would (docs/access-reviews.md, "Closing a review early").
      const closeNow = () => confirm.ask({
        title: `Close ${uar.name} now?`,
        body: (
          <>
            <p>{uar.instantly_action_reviews ? 'Revokes already ended the access they named.' : 'The revokes reviewers decided end the access now.'}{' '}
              Items nobody answered (or left for later) are <strong>{items.unanswered_decision === 'REVOKE' ? 'revoked' : 'kept'}</strong>, as the review says.</p>
            <p>Nobody can decide after, and the deadline ({when(uar.deadline)}) no longer matters.</p>
          </>
        ),
        confirm: 'Close the review',
        action: () => post('/uar/{uar_id}/close', { path: { uar_id: props.id } }),
        done: decided,
      });
      return (
        <Page title={uar.name}>
          <p>Deadline {when(uar.deadline)}. Items nobody answers by then are <strong>{items.unanswered_decision === 'REVOKE' ? 'revoked' : 'kept'}</strong>. {uar.instantly_action_reviews ? 'A revoke ends the access at once.' : 'Revokes take effect when the review closes; until then Keep undoes one.'}{items.closed_at && ` Closed ${when(items.closed_at)}.`}</p>
          <p data-count="review-waiting">{admin && !onlyMine ? `${waiting} of ${rows.length} items wait for an answer.` : `${waiting} of your ${rows.length} item${rows.length === 1 ? '' : 's'} wait for your answer.`}</p>
          {admin && (
            <label class="choice"><input type="checkbox" checked={onlyMine} onChange={(e) => { setOnlyMine(e.currentTarget.checked); setSelected(new Set()); }} /> Only items assigned to me</label>
          )}
          <Problem message={action.error} />
          {confirm.dialog}
          <div class="actions" role="group" aria-label="Bulk decisions">
            {(['KEEP', 'REVOKE', 'LATER'] as Decision[]).map((d) => (
              <button key={d} type="button" disabled={action.busy || selected.size === 0} onClick={() => decide([...selected].map((id) => ({ uar_item_id: id, decision: d })))}>
                {LABEL[d]} selected ({selected.size})
              </button>
            ))}
          </div>
          {admin && !closed && (
            <p><button type="button" class="danger" disabled={action.busy} onClick={closeNow}>Close the review now</button></p>
          )}
          {admin && !closed && (
            <form onSubmit={assign} class="actions">
              <label for="assignee">Assign selected items to (email)</label>
              <input id="assignee" type="email" required value={assignee} onInput={(e) => setAssignee(e.currentTarget.value)} />
              <button type="submit" disabled={action.busy || selected.size === 0}>Assign</button>
            </form>
          )}
          {rows.length === 0 ? <p>No items here.</p> : (
            <div class="table-wrap">
              <table class="stack">
                <caption>Access to review</caption>
                <thead><tr>
                  <th scope="col"><input type="checkbox" aria-label="Select all" disabled={open.length === 0} checked={selected.size === open.length && open.length > 0} onChange={(e) => setSelected(e.currentTarget.checked ? new Set(open.map((r) => r.uar_item_id)) : new Set())} /></th>
                  <th scope="col">Person</th><th scope="col">Item</th><th scope="col">Level</th><th scope="col">Path</th>
                  {admin && <th scope="col">Reviewers</th>}
                  <th scope="col">Decision</th>
                </tr></thead>
                <tbody>{rows.map((row) => (
                  <tr key={row.uar_item_id}>
                    <td><input type="checkbox" aria-label={`Select ${row.full_name} on ${row.item_name}`} disabled={!decidable(row)} checked={selected.has(row.uar_item_id)} onChange={() => toggle(row.uar_item_id)} /></td>
                    <td data-label="Person">{row.full_name}</td>
                    <td data-label="Item">{admin ? <Link href={`/console/${row.item_type === 'RESOURCE' ? 'resources' : 'groups'}/${row.item_id}`}>{row.item_name}</Link> : row.item_name}</td>
                    <td data-label="Level">{row.access_level.access_level_name || 'Default'}</td>
                    <td data-label="Path">{row.has_direct_access ? 'direct' : 'through groups'}</td>
                    {admin && <td data-label="Reviewers">{reviewersOf(row, myId)}</td>}
                    <td class="row-actions">
                      {row.user_id === myId ? <span>Your own access: {row.decision ? LABEL[row.decision] : 'another reviewer decides'}</span> : (
                        <div role="group" aria-label={`Decision for ${row.full_name} on ${row.item_name}`} class="decisions">
                          {(['KEEP', 'REVOKE', 'LATER'] as Decision[]).map((d) => (
                            <button key={d} type="button" aria-pressed={row.decision === d} class={row.decision === d ? 'chosen' : undefined}
                              disabled={action.busy || closed || (d === 'REVOKE' && !row.has_direct_access)}
                              onClick={() => decide([{ uar_item_id: row.uar_item_id, decision: d }])}>
                              {LABEL[d]}
                            </button>
                          ))}
                        </div>
                      )}
                    </td>
                  </tr>
                ))}</tbody>
              </table>
            </div>
          )}
        </Page>
      );
    }}</Pending>
  );
}

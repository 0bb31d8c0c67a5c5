// Access reviews: admins start one (with an explicit choice for unanswered items) and decide its items —
// keep, revoke or later, one by one or in bulk. A revoke ends the access at once.
import { useState } from 'preact/hooks';
import { all, get, post, put, type Me } from '../api.ts';
import { AdminOnly, Link, navigate, Page, Pending, Problem, useAction, useLoad, when } from '../ui.tsx';

export function Reviews(props: { me: Me }) {
  const loaded = useLoad(() => all('/uars'), []);
  const [name, setName] = useState('');
  const [deadline, setDeadline] = useState('');
  const [policy, setPolicy] = useState<'' | 'KEEP' | 'REVOKE'>('');
  const action = useAction();
  const start = async (e: Event) => {
    e.preventDefault();
    if (policy === '') return action.setError('Choose what happens to items nobody answers by the deadline.');
    let id = '';
    const ok = await action.run(async () => {
      const uar = await post('/uar', {
        name: name.trim(), reviewer_assignment_policy: 'MANUALLY', send_reviewer_assignment_notification: false,
        deadline: new Date(`${deadline}T23:59:59`).toISOString(), time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC', self_review_allowed: false,
      });
      id = uar.uar_id;
      await put(`/uar/${id}/policy`, { unanswered_decision: policy });
    });
    if (ok) navigate(`/console/reviews/${id}`);
  };
  return (
    <AdminOnly me={props.me}>
      <Page title="Access reviews">
        <Pending loaded={loaded}>{(reviews) => reviews.length === 0 ? <p>No reviews yet.</p> : (
          <ul>{reviews.map((r: any) => <li key={r.uar_id}><Link href={`/console/reviews/${r.uar_id}`}>{r.name}</Link> — deadline {when(r.deadline)}</li>)}</ul>
        )}</Pending>
        <form onSubmit={start} class="stack">
          <h2>Start a review of all access</h2>
          <div class="field"><label for="uar-name">Name</label><input id="uar-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} /></div>
          <div class="field"><label for="uar-deadline">Deadline</label><input id="uar-deadline" type="date" required value={deadline} onInput={(e) => setDeadline(e.currentTarget.value)} /></div>
          <fieldset>
            <legend>At the deadline, items nobody answered are</legend>
            <label class="choice"><input type="radio" name="policy" value="KEEP" checked={policy === 'KEEP'} onChange={() => setPolicy('KEEP')} /> kept</label>
            <label class="choice"><input type="radio" name="policy" value="REVOKE" checked={policy === 'REVOKE'} onChange={() => setPolicy('REVOKE')} /> revoked</label>
          </fieldset>
          <Problem message={action.error} />
          <button type="submit" class="primary" disabled={action.busy}>Start review</button>
        </form>
      </Page>
    </AdminOnly>
  );
}

type Decision = 'KEEP' | 'REVOKE' | 'LATER';

export function ReviewPage(props: { me: Me; id: string }) {
  const loaded = useLoad(async () => {
    const [uar, items] = await Promise.all([get(`/uar/${props.id}`), get(`/uar/${props.id}/items`, { page_size: 1000 })]);
    return { uar, items };
  }, [props.id]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const action = useAction();
  const decide = async (decisions: { uar_item_id: number; decision: Decision }[]) => {
    if (decisions.length === 0) return action.setError('Select items first.');
    if (await action.run(() => post(`/uar/${props.id}/decisions`, { decisions }))) {
      setSelected(new Set());
      loaded.reload();
    }
  };
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  return (
    <AdminOnly me={props.me}>
      <Pending loaded={loaded}>{({ uar, items }) => (
        <Page title={uar.name}>
          <p>Deadline {when(uar.deadline)}. Items nobody answers by then are <strong>{items.unanswered_decision === 'REVOKE' ? 'revoked' : 'kept'}</strong>.{items.closed_at && ` Closed ${when(items.closed_at)}.`}</p>
          <Problem message={action.error} />
          <div class="actions" role="group" aria-label="Bulk decisions">
            {(['KEEP', 'REVOKE', 'LATER'] as Decision[]).map((d) => (
              <button key={d} type="button" disabled={action.busy || selected.size === 0} onClick={() => decide([...selected].map((id) => ({ uar_item_id: id, decision: d })))}>
                {d === 'KEEP' ? 'Keep' : d === 'REVOKE' ? 'Revoke' : 'Later'} selected ({selected.size})
              </button>
            ))}
          </div>
          <div class="table-wrap">
            <table>
              <caption>Access to review</caption>
              <thead><tr>
                <th scope="col"><input type="checkbox" aria-label="Select all" checked={selected.size === items.results.length && items.results.length > 0} onChange={(e) => setSelected(e.currentTarget.checked ? new Set(items.results.map((r: any) => r.uar_item_id)) : new Set())} /></th>
                <th scope="col">Person</th><th scope="col">Item</th><th scope="col">Level</th><th scope="col">Path</th><th scope="col">Decision</th>
              </tr></thead>
              <tbody>{items.results.map((row: any) => (
                <tr key={row.uar_item_id}>
                  <td><input type="checkbox" aria-label={`Select ${row.full_name} on ${row.item_name}`} checked={selected.has(row.uar_item_id)} onChange={() => toggle(row.uar_item_id)} /></td>
                  <td>{row.full_name}</td>
                  <td><Link href={`/console/${row.item_type === 'RESOURCE' ? 'resources' : 'groups'}/${row.item_id}`}>{row.item_name}</Link></td>
                  <td>{row.access_level.access_level_name}</td>
                  <td>{row.has_direct_access ? 'direct' : 'through groups'}</td>
                  <td>
                    <div role="group" aria-label={`Decision for ${row.full_name} on ${row.item_name}`} class="decisions">
                      {(['KEEP', 'REVOKE', 'LATER'] as Decision[]).map((d) => (
                        <button key={d} type="button" aria-pressed={row.decision === d} class={row.decision === d ? 'chosen' : undefined}
                          disabled={action.busy || Boolean(items.closed_at) || (d === 'REVOKE' && !row.has_direct_access)}
                          onClick={() => decide([{ uar_item_id: row.uar_item_id, decision: d }])}>
                          {d === 'KEEP' ? 'Keep' : d === 'REVOKE' ? 'Revoke' : 'Later'}
                        </button>
                      ))}
                    </div>
                  </td>
                </tr>
              ))}</tbody>
            </table>
          </div>
        </Page>
      )}</Pending>
    </AdminOnly>
  );
}

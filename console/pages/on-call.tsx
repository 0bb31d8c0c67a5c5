// A group's on-call schedules on its page (docs/on-call.md): who is on call now and until when, the last sync
// and its failure; for admins, adding a PagerDuty or Opsgenie schedule (checked with the provider), linking
// one, syncing now and unlinking (behind a dialog: the rotation's members leave at the next sync).
import { useState } from 'preact/hooks';
import { get, post, put } from '../api.ts';
import { Pending, Problem, useAction, useConfirm, useLoad, when } from '../ui.tsx';

const PROVIDERS: Record<string, string> = { PAGER_DUTY: 'PagerDuty', OPSGENIE: 'Opsgenie' };

/** `changed` reloads the page around it: the rotation's members are the group's holders too. */
export function GroupOnCall(props: { groupId: string; groupName: string; admin: boolean; names: Map<string, string>; changed: () => void }) {
  const { groupId, groupName, admin } = props;
  const loaded = useLoad(async () => {
    const linked = (await get('/groups/{group_id}/on-call-schedules', { path: { group_id: groupId } })).on_call_schedules;
    const [now, every] = await Promise.all([
      Promise.all(linked.map((s) => get('/on-call-schedules/{on_call_schedule_id}/on-call', { path: { on_call_schedule_id: s.on_call_schedule_id } }))),
      admin ? get('/on-call-schedules').then((list) => list.on_call_schedules) : Promise.resolve([]),
    ]);
    return { linked, now, every };
    // Not settled while a schedule has never synced or its last sync failed (retried with back-off): the
    // section looks again by itself until it works, so the page changes without a reload (issue 41.5).
  }, [groupId], (data) => data.now.every((state) => state.last_synced_at !== null && state.last_error === null));
  const [provider, setProvider] = useState('PAGER_DUTY');
  const [remoteId, setRemoteId] = useState('');
  const [chosen, setChosen] = useState('');
  const action = useAction();
  const confirm = useConfirm();
  const link = (ids: string[]) => put('/groups/{group_id}/on-call-schedules', { path: { group_id: groupId }, body: { on_call_schedule_ids: ids } });
  const ids = () => (loaded.data?.linked ?? []).map((s) => s.on_call_schedule_id);

  const add = async (e: Event) => {
    e.preventDefault();
    if (await action.run(async () => {
      const made = await post('/on-call-schedules', { body: { third_party_provider: provider as 'PAGER_DUTY', remote_id: remoteId.trim() } });
      await link([...ids(), made.on_call_schedule_id]);
      await post('/on-call-schedules/{on_call_schedule_id}/sync', { path: { on_call_schedule_id: made.on_call_schedule_id } });
    })) {
      setRemoteId('');
      loaded.reload();
      props.changed();
    }
  };
  const follow = async (e: Event) => {
    e.preventDefault();
    if (chosen && await action.run(async () => {
      await link([...ids(), chosen]);
      await post('/on-call-schedules/{on_call_schedule_id}/sync', { path: { on_call_schedule_id: chosen } });
    })) {
      setChosen('');
      loaded.reload();
      props.changed();
    }
  };
  const syncNow = (id: string) => async () => {
    if (await action.run(() => post('/on-call-schedules/{on_call_schedule_id}/sync', { path: { on_call_schedule_id: id } }))) {
      loaded.reload();
      props.changed();
    }
  };
  const unlink = (id: string, name: string) => () => confirm.ask({
    title: `Stop following ${name}?`,
    body: <p>{groupName} stops following {name}: the people the rotation made members leave at the next sync. Members added by hand stay.</p>,
    confirm: `Stop following ${name}`,
    action: () => link(ids().filter((other) => other !== id)),
    done: () => {
      loaded.reload();
      props.changed();
    },
  });

  return (
    <section aria-labelledby="on-call">
      <h2 id="on-call">On call</h2>
      <Pending loaded={loaded}>{({ linked, now, every }) => {
        const unlinked = every.filter((s) => !linked.some((l) => l.on_call_schedule_id === s.on_call_schedule_id));
        return (
          <>
            {linked.length === 0
              ? <p>{groupName} follows no on-call schedule.{admin ? ' Add one below: whoever is on call then holds this group until their shift ends.' : ''}</p>
              : <p>Whoever is on call for {linked.length === 1 ? 'this schedule' : 'these schedules'} holds {groupName} until their shift ends.</p>}
            {linked.map((schedule, i) => {
              const state = now[i]!;
              const name = schedule.name ?? schedule.remote_id ?? schedule.on_call_schedule_id;
              return (
                <div key={schedule.on_call_schedule_id} class="stack">
                  <h3>{name} <small>({PROVIDERS[schedule.third_party_provider ?? ''] ?? schedule.third_party_provider}, {schedule.remote_id})</small></h3>
                  {state.on_call.length === 0 ? <p>Nobody Gatehouse knows is on call now.</p> : (
                    <ul>{state.on_call.map((person) => (
                      <li key={person.user_id}>{props.names.get(person.user_id) ?? person.email}, on call until {when(person.ends_at)}</li>
                    ))}</ul>
                  )}
                  {state.unknown_emails.length > 0 && <p>Also on call, but not in Gatehouse: {state.unknown_emails.join(', ')}.</p>}
                  <p>Last synced {when(state.last_synced_at)}.</p>
                  {state.last_error !== null && (
                    <p class="error">The last {state.failures === 1 ? 'sync' : `${state.failures} syncs`} failed: {state.last_error}. Nobody is added or extended until it works again; memberships end at their shifts' ends.</p>
                  )}
                  {admin && (
                    <p class="row-actions">
                      <button type="button" disabled={action.busy} onClick={syncNow(schedule.on_call_schedule_id)}>Sync {name} now</button>
                      <button type="button" class="danger" onClick={unlink(schedule.on_call_schedule_id, name)}>Stop following {name}</button>
                    </p>
                  )}
                </div>
              );
            })}
            {admin && unlinked.length > 0 && (
              <form onSubmit={follow} class="stack">
                <h3>Follow a schedule already added</h3>
                <div class="field"><label for="on-call-follow">Schedule</label>
                  <select id="on-call-follow" value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
                    <option value="">Choose a schedule</option>
                    {unlinked.map((s) => <option key={s.on_call_schedule_id} value={s.on_call_schedule_id}>{s.name ?? s.remote_id} ({PROVIDERS[s.third_party_provider ?? ''] ?? s.third_party_provider})</option>)}
                  </select></div>
                <button type="submit" disabled={action.busy || chosen === ''}>Follow it</button>
              </form>
            )}
            {admin && (
              <form onSubmit={add} class="stack">
                <h3>Add an on-call schedule</h3>
                <div class="field"><label for="on-call-provider">Provider</label>
                  <select id="on-call-provider" value={provider} onChange={(e) => setProvider(e.currentTarget.value)}>
                    {Object.entries(PROVIDERS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
                  </select></div>
                <div class="field"><label for="on-call-remote">Schedule id at the provider</label>
                  <input id="on-call-remote" required value={remoteId} onInput={(e) => setRemoteId(e.currentTarget.value)} aria-describedby="on-call-remote-hint" />
                  <small id="on-call-remote-hint">PagerDuty: the id in the schedule's address (P…); Opsgenie: the schedule's id. Gatehouse asks the provider for it.</small></div>
                <button type="submit" disabled={action.busy}>Add and follow</button>
              </form>
            )}
            <Problem message={action.error} />
          </>
        );
      }}</Pending>
      {confirm.dialog}
    </section>
  );
}

// Teams (admins): the API's owners — who administers and reviews apps, resources and groups. List and create
// them; on a team's page its members (escalation order), its reviewer channel and what it owns; delete an empty one.
import { useState } from 'preact/hooks';
import { all, del, get, post, put, type Me, type Schema } from '../api.ts';
import { userByEmail } from './people.tsx';
import { AdminOnly, Link, minutes, navigate, Page, Pending, Problem, useAction, useConfirm, useLoad } from '../ui.tsx';

type Owner = Schema<'Owner'>;
type MessageChannel = Schema<'MessageChannel'>;

const channelName = (c: MessageChannel) => `${c.name || c.remote_id || c.message_channel_id}${c.third_party_provider ? ` (${c.third_party_provider === 'SLACK' ? 'Slack' : 'Teams'})` : ''}`;

export function Teams(props: { me: Me }) {
  const loaded = useLoad(() => all('/owners'), []);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const action = useAction();
  const create = async (e: Event) => {
    e.preventDefault();
    let made: Owner | undefined;
    const ok = await action.run(async () => {
      made = await post('/owners', { body: { name: name.trim(), description: description.trim(), user_ids: [props.me.user.user_id] } });
    });
    if (ok && made) navigate(`/console/teams/${made.owner_id}`);
  };
  return (
    <Page title="Teams">
      <AdminOnly me={props.me}>
        <p class="hint">A team (an <em>owner</em> in the API) administers apps, resources and groups, and reviews requests for them.</p>
        <Pending loaded={loaded}>{(owners) => owners.length === 0 ? <p>There are no teams yet.</p> : (
          <ul class="plain">{owners.map((o) => (
            <li key={o.owner_id}><Link href={`/console/teams/${o.owner_id}`}>{o.name ?? o.owner_id}</Link>{o.description ? <span class="hint">{o.description}</span> : null}</li>
          ))}</ul>
        )}</Pending>
        <h2>Create a team</h2>
        <form onSubmit={create}>
          <div class="field"><label for="team-name">Name</label>
            <input id="team-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} /></div>
          <div class="field"><label for="team-description">Description <span class="required">(optional)</span></label>
            <input id="team-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} /></div>
          <p class="hint">You are its first member; add others on its page.</p>
          <button type="submit" class="primary" disabled={action.busy}>Create team</button>
          <Problem message={action.error} />
        </form>
      </AdminOnly>
    </Page>
  );
}

export function TeamPage(props: { me: Me; id: string }) {
  const owner_id = props.id;
  const loaded = useLoad(async () => {
    const path = { owner_id };
    const [team, members, channels, apps, resources, groups] = await Promise.all([
      get('/owners/{owner_id}', { path }),
      get('/owners/{owner_id}/users', { path }),
      get('/message-channels'),
      get('/apps', { query: { owner_filter: owner_id } }),
      all('/resources', { query: { owner_filter: owner_id } }, 500),
      all('/groups', { query: { owner_filter: owner_id } }, 500),
    ]);
    return { team, members: members.users, channels: channels.channels, apps: apps.apps, resources, groups };
  }, [owner_id]);
  const action = useAction();
  const confirm = useConfirm();
  const [email, setEmail] = useState('');
  const [channel, setChannel] = useState<string | undefined>(undefined);
  const setMembers = (ids: string[]) => put('/owners/{owner_id}/users', { path: { owner_id }, body: { user_ids: ids } });
  return (
    <AdminOnly me={props.me}>
      <Pending loaded={loaded}>{({ team, members, channels, apps, resources, groups }) => {
        const name = team.name ?? 'this team';
        const ids = members.map((m) => m.user_id);
        const fromGroup = !!team.source_group_id;
        const add = async (e: Event) => {
          e.preventDefault();
          const ok = await action.run(async () => {
            const person = await userByEmail(email.trim());
            if (!person) throw new Error(`Nobody has the email ${email.trim()}. Add them under People first.`);
            if (ids.includes(person.user_id)) throw new Error(`${person.full_name} is already in ${name}.`);
            await setMembers([...ids, person.user_id]);
          });
          if (ok) {
            setEmail('');
            loaded.reload();
          }
        };
        const chosenChannel = channel ?? team.reviewer_message_channel_id ?? '';
        const saveChannel = async (e: Event) => {
          e.preventDefault();
          if (await action.run(() => put('/owners', { body: { owners: [{ owner_id, reviewer_message_channel_id: chosenChannel }] } }))) loaded.reload();
        };
        const owns = apps.length + resources.length + groups.length;
        const linked = channels.find((c) => c.message_channel_id === team.reviewer_message_channel_id);
        return (
          <Page title={name}>
            {team.description && <p>{team.description}</p>}
            <dl class="facts">
              <dt>Escalation</dt><dd>{team.access_request_escalation_period ? `to the next member after ${minutes(team.access_request_escalation_period)}` : 'none'}</dd>
            </dl>
            <h2>Members</h2>
            {fromGroup && <p class="notice">Members are whoever holds this team's source group; change that group's members instead.</p>}
            {members.length === 0 ? <p>{name} has no members: nobody reviews for it.</p> : (
              <ol class="plain">{members.map((m) => (
                <li key={m.user_id}>
                  <Link href={`/console/users/${m.user_id}`}>{m.full_name}</Link> <span class="hint">{m.email}</span>
                  {!fromGroup && (
                    <button type="button" class="danger" onClick={() => confirm.ask({
                      title: `Remove ${m.full_name} from ${name}?`,
                      body: <p>{m.full_name} stops administering and reviewing for what {name} owns{members.length === 1 ? `, and ${name} is left with nobody to review for it` : ''}. Their own access stays.</p>,
                      confirm: `Remove ${m.full_name}`,
                      action: () => setMembers(ids.filter((id) => id !== m.user_id)),
                      done: loaded.reload,
                    })}>Remove {m.full_name}</button>
                  )}
                </li>
              ))}</ol>
            )}
            {!fromGroup && (
              <form class="filters" onSubmit={add}>
                <div class="field"><label for="member-email">Add a member by email</label>
                  <input id="member-email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} /></div>
                <button type="submit" disabled={action.busy}>Add member</button>
              </form>
            )}
            <h2>Reviewer channel</h2>
            <p>{linked ? <>New requests for {name} are posted to <strong>{channelName(linked)}</strong>, with Approve and Deny buttons.</> : <>{name} has no reviewer channel: its reviewers are told one by one (by email, or Slack where set up).</>}</p>
            {channels.length > 0 && (
              <form class="filters" onSubmit={saveChannel}>
                <div class="field"><label for="team-channel">Where new requests for {name} are posted</label>
                  <select id="team-channel" value={chosenChannel} onChange={(e) => setChannel(e.currentTarget.value)}>
                    <option value="">No channel: reviewers are told one by one</option>
                    {channels.map((c) => <option key={c.message_channel_id} value={c.message_channel_id}>{channelName(c)}</option>)}
                  </select></div>
                <button type="submit" disabled={action.busy}>Save channel</button>
              </form>
            )}
            <AddSlackChannel team={name} onAdd={(made) => put('/owners', { body: { owners: [{ owner_id, reviewer_message_channel_id: made.message_channel_id }] } })} onDone={() => {
              setChannel(undefined);
              loaded.reload();
            }} />
            <Problem message={action.error} />
            <h2>What {name} owns</h2>
            {owns === 0 ? <p>Nothing yet.</p> : (
              <ul class="plain">
                {apps.map((a) => <li key={a.app_id}>App: {a.name}</li>)}
                {resources.map((r) => <li key={r.resource_id}>Resource: <Link href={`/console/resources/${r.resource_id}`}>{r.name ?? r.resource_id}</Link></li>)}
                {groups.map((g) => <li key={g.group_id}>Group: <Link href={`/console/groups/${g.group_id}`}>{g.name ?? g.group_id}</Link></li>)}
              </ul>
            )}
            <h2>Delete</h2>
            {owns > 0 ? <p>{name} cannot be deleted while it owns something: give those to another team first.</p> : (
              <button type="button" class="danger" onClick={() => confirm.ask({
                title: `Delete ${name}?`,
                body: <p>The team and its member list end. Nothing else changes: it owns nothing. (A request configuration that names it as reviewer keeps it from being deleted.)</p>,
                confirm: `Delete ${name}`,
                action: () => del('/owners/{owner_id}', { path: { owner_id } }),
                done: () => navigate('/console/teams'),
              })}>Delete {name}</button>
            )}
            {confirm.dialog}
          </Page>
        );
      }}</Pending>
    </AdminOnly>
  );
}

/** A Slack channel ID as Slack shows it in a channel's details: C… (public) or G… (older private channels). */
const SLACK_CHANNEL_ID = /^[CG][A-Z0-9]{6,}$/;

/**
 * Adds a Slack channel Gatehouse may post to (`POST /v1/message-channels`) and makes it the team's
 * reviewer channel (`onAdd`), in one step, so nobody needs the API for it.
 */
function AddSlackChannel(props: { team: string; onAdd: (channel: MessageChannel) => Promise<unknown>; onDone: () => void }) {
  const [remoteId, setRemoteId] = useState('');
  const [label, setLabel] = useState('');
  const [isPrivate, setPrivate] = useState(false);
  const [added, setAdded] = useState<string | undefined>(undefined);
  const action = useAction();
  const add = async (e: Event) => {
    e.preventDefault();
    const id = remoteId.trim().toUpperCase();
    if (!SLACK_CHANNEL_ID.test(id)) return action.setError('The Slack channel ID starts with C (or G for an older private channel) followed by letters and digits, such as C03FJR97276.');
    const named = label.trim() === '' ? '' : label.trim().startsWith('#') ? label.trim() : `#${label.trim()}`;
    let made: MessageChannel | undefined;
    const ok = await action.run(async () => {
      made = await post('/message-channels', { body: { third_party_provider: 'SLACK', remote_id: id, ...(named && { name: named }), is_private: isPrivate } });
      await props.onAdd(made);
    });
    if (ok && made) {
      setAdded(`${channelName(made)} is now where requests for ${props.team} are posted.`);
      setRemoteId('');
      setLabel('');
      setPrivate(false);
      props.onDone();
    }
  };
  return (
    <form onSubmit={add} aria-labelledby="add-channel">
      <h3 id="add-channel">Add a Slack channel for {props.team}</h3>
      <p class="hint" id="channel-id-help">In Slack, open the channel's details: its ID (such as C03FJR97276) is at the bottom. Invite Gatehouse's Slack app to the channel, or its messages cannot be posted there.</p>
      <div class="field"><label for="channel-id">Slack channel ID</label>
        <input id="channel-id" required autocomplete="off" spellcheck={false} aria-describedby="channel-id-help" value={remoteId} onInput={(e) => setRemoteId(e.currentTarget.value)} /></div>
      <div class="field"><label for="channel-name">Channel name <span class="required">(optional, as people know it)</span></label>
        <input id="channel-name" placeholder="#data-reviews" value={label} onInput={(e) => setLabel(e.currentTarget.value)} /></div>
      <div class="field check"><input id="channel-private" type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.currentTarget.checked)} /><label for="channel-private">It is a private channel</label></div>
      <button type="submit" disabled={action.busy}>Add and use this channel</button>
      <Problem message={action.error} />
      {added && <p class="notice" role="status">{added}</p>}
    </form>
  );
}

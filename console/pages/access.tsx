// My access (what I hold, through which path, until when; extend = a new request), an item's page
// (holders, owners, reviewer stages; admins grant and revoke) and a person's page (admins and their
// manager see what they hold; admins offboard).
import { useState } from 'preact/hooks';
import { all, ApiError, del, get, post, put, type Me, type Schema } from '../api.ts';
import { holdingsOf, type Holding } from './home.tsx';
import { PersonAdmin } from './people.tsx';
import { connectorKinds, HeldOutside } from './connector.tsx';
import { defaultDuration, durationChoice, durationChoices, isAdmin, requestBounds, Link, minutes, Page, Pending, Problem, propagationWords, roleWords, useAction, useConfirm, useLoad, userStatusWords, when } from '../ui.tsx';
import { BreakGlassOnItem } from './break-glass.tsx';
import { GroupOnCall } from './on-call.tsx';

function pathOf(h: Holding): string {
  if (h.kind === 'group') return 'membership';
  if (h.direct && h.paths > 1) return `direct, and through ${h.paths - 1} group${h.paths === 2 ? '' : 's'}`;
  if (h.direct) return 'direct';
  return `through ${h.paths} group${h.paths === 1 ? '' : 's'}`;
}

/** A holding still being carried to its connector's system: pages listing it look again until it is. */
const carrying = (h: Holding): boolean => h.propagation === 'PENDING';

function HoldingsTable(props: { holdings: Holding[]; extend?: boolean; caption: string }) {
  if (props.holdings.length === 0) return <p>No access.</p>;
  return (
    <div class="table-wrap">
      <table class="stack">
        <caption>{props.caption}</caption>
        <thead><tr><th scope="col">Item</th><th scope="col">Level</th><th scope="col">Path</th><th scope="col">Until</th>{props.extend && <th scope="col"><span class="sr-only">Actions</span></th>}</tr></thead>
        <tbody>
          {props.holdings.map((h) => (
            <tr key={`${h.kind}${h.id}${h.level}`}>
              <td data-label="Item"><Link href={`/console/${h.kind}s/${h.id}`}>{h.name}</Link> <small>({h.kind})</small></td>
              <td data-label="Level">{h.level}</td>
              <td data-label="Path">{pathOf(h)}{h.propagation && h.propagation !== 'SUCCESS' ? ` · ${propagationWords(h.propagation)}` : ''}</td>
              <td data-label="Until">{h.expires ? when(h.expires) : 'no expiry'}</td>
              {props.extend && (
                <td class="row-actions">{h.expires && <Link href={`/console/requests/new?${h.kind}_id=${h.id}&access_level_remote_id=${encodeURIComponent(h.levelId)}&extend=1`}>Extend {h.name}</Link>}</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function MyAccess(props: { me: Me }) {
  const loaded = useLoad(() => holdingsOf(props.me.user.user_id), [props.me.user.user_id], (holdings) => !holdings.some(carrying));
  return (
    <Page title="My access">
      <p class="hint">Extending is a new request for the same item and level, reviewed as the item says: for up to the item's extension duration where it sets one, otherwise a renewal within its longest grant.</p>
      <Pending loaded={loaded}>{(holdings) => <HoldingsTable holdings={holdings} extend caption="What you hold" />}</Pending>
    </Page>
  );
}

/** Whether a change to the item is still on its way to the connector's system (not given up on): the page watches until none is. */
function beingCarried(data: { holders: { propagation_status?: { status: string } | null }[]; propagations: { state: string }[] }): boolean {
  return data.propagations.some((p) => p.state !== 'FAILED') || data.holders.some((h) => h.propagation_status?.status === 'PENDING');
}

type Configuration = NonNullable<Schema<'Resource'>['request_configurations']>[number];
type ConfiguredStage = NonNullable<Configuration['reviewer_stages']>[number];

/** How requests under one configuration are reviewed, in words: "reviewed in 2 stages", never "2 stage(s)". */
function reviewWords(c: Configuration, owningTeam: string | undefined): string {
  if (!c.allow_requests) return 'requests are not allowed';
  if (c.auto_approval) return 'approved automatically, without review';
  const n = (c.reviewer_stages ?? []).length;
  if (n === 0) return `reviewed by ${owningTeam ? `a member of ${owningTeam}` : 'a member of the owning team'}, the item's owner (no reviewer stages are set)`;
  return n === 1 ? 'reviewed in one stage:' : `reviewed in ${n} stages, one after the other:`;
}

/** Who approves in one stage, in words: each team by name, and what "all" means for a team (one member speaks for it). */
function stageWords(s: ConfiguredStage, teamNames: Map<string, string>): string {
  const who = [
    s.require_manager_approval && "the requester's manager",
    s.require_admin_approval && 'an admin',
    ...s.owner_ids.map((id) => `a member of ${teamNames.get(id) ?? 'a team you cannot see'}`),
  ].filter((w): w is string => typeof w === 'string');
  if (who.length === 0) return "nobody is named, so the item's owning team reviews";
  if (who.length === 1) return `${who[0]!.charAt(0).toUpperCase()}${who[0]!.slice(1)} approves.`;
  const list = `${who.slice(0, -1).join(', ')} and ${who.at(-1)}`;
  return s.operator === 'AND' ? `All of these approve: ${list}.` : `Any one of these approves: ${list.replace(/ and (?=[^,]*$)/, ' or ')}.`;
}

export function ItemPage(props: { me: Me; kind: 'resource' | 'group'; id: string }) {
  const { kind, id } = props;
  const admin = isAdmin(props.me);
  const loaded = useLoad(async () => {
    const item = kind === 'resource'
      ? await get('/resources/{resource_id}', { path: { resource_id: id } })
      : await get('/groups/{group_id}', { path: { group_id: id } });
    const appId = item.app_id;
    // The teams the reviewer stages name, by name (one read each; a team this caller may not read stays unnamed).
    const stageOwnerIds = [...new Set((item.request_configurations ?? []).flatMap((c) => (c.reviewer_stages ?? []).flatMap((s) => s.owner_ids)))];
    const stageOwners = Promise.all(stageOwnerIds.map((owner_id) => get('/owners/{owner_id}', { path: { owner_id } }).catch(() => undefined)));
    const [holders, owner, connector, propagations, named, kinds, levels] = await Promise.all([
      kind === 'resource' ? all('/resources/{resource_id}/users', { path: { resource_id: id } }) : all('/groups/{group_id}/users', { path: { group_id: id } }),
      item.admin_owner_id ? get('/owners/{owner_id}', { path: { owner_id: item.admin_owner_id } }).catch(() => undefined) : Promise.resolve(undefined),
      // Where access is carried to (admins: docs/connectors.md); 404 is "no connector".
      admin && appId ? get('/apps/{app_id}/connector', { path: { app_id: appId } }).catch((err) => (err instanceof ApiError && err.status === 404 ? null : Promise.reject(err))) : Promise.resolve(undefined),
      admin && appId ? all('/propagations', { query: { app_id: appId } }, 1000) : Promise.resolve([]),
      stageOwners,
      admin ? connectorKinds() : Promise.resolve([]),
      // Which levels reach the connected system (docs/connectors.md "Levels that carry access"): the Grant form offers those.
      admin ? (kind === 'resource'
        ? get('/resources/{resource_id}/access-levels', { path: { resource_id: id } })
        : get('/groups/{group_id}/access-levels', { path: { group_id: id } })) : Promise.resolve(undefined),
    ]);
    const teamNames = new Map(named.filter((o) => o !== undefined).map((o) => [o.owner_id, o.name ?? o.owner_id]));
    const carrier = kinds.find((k) => k.connector_type === connector?.connector_type)?.name ?? connector?.connector_type;
    return { item, holders, owner, connector, carrier, propagations: propagations.filter((p) => p.item_id === id), teamNames, levels };
  }, [kind, id], (data) => !beingCarried(data));
  const [email, setEmail] = useState('');
  const [level, setLevel] = useState<string | undefined>(undefined);
  // A direct grant offers the request form's durations and preselects the item's suggested one (else a
  // day): access without an end is a choice, not a default. undefined: not chosen yet.
  const [duration, setDuration] = useState<number | undefined>(undefined);
  const action = useAction();
  const grant = async (e: Event) => {
    e.preventDefault();
    if (await action.run(async () => {
      const user = await get('/user', { query: { email: email.trim() } });
      const body = { duration_minutes: duration ?? grantDefault, access_level_remote_id: grantLevel };
      if (kind === 'resource') await post('/resources/{resource_id}/users/{user_id}', { path: { resource_id: id, user_id: user.user_id }, body });
      else await post('/groups/{group_id}/users/{user_id}', { path: { group_id: id, user_id: user.user_id }, body });
    })) {
      setEmail('');
      loaded.reload();
    }
  };
  const bounds = requestBounds(loaded.data?.item);
  // Only the levels that carry access in the connected system are offered, the first of them chosen; when none does, all are, with words saying so.
  const allLevels = loaded.data?.levels?.access_levels ?? [{ access_level_name: '', access_level_remote_id: '', carries_access: true, note: undefined }];
  const carried = allLevels.filter((l) => l.carries_access);
  const offered = carried.length > 0 ? carried : allLevels;
  const grantLevel = level !== undefined && offered.some((l) => l.access_level_remote_id === level) ? level : offered[0]?.access_level_remote_id ?? '';
  const grantsNothing = carried.length === 0 ? allLevels.find((l) => l.access_level_remote_id === grantLevel)?.note : undefined;
  const grantDefault = Math.max(0, defaultDuration(bounds.max, bounds.suggested));
  const retry = (appId: string) => async () => {
    if (await action.run(() => post('/apps/{app_id}/connector/retry', { path: { app_id: appId } }))) loaded.reload();
  };
  const confirm = useConfirm();
  const revoke = (holder: { user_id: string; full_name?: string; access_level?: { access_level_remote_id?: string; access_level_name?: string } | null }, itemName: string, throughGroups: boolean) => () => {
    const query = { access_level_remote_id: holder.access_level?.access_level_remote_id ?? '' };
    const level = holder.access_level?.access_level_name;
    const who = holder.full_name ?? 'this person';
    confirm.ask({
      title: `Revoke ${who}'s access to ${itemName}?`,
      body: <p>{who}'s direct {kind === 'group' ? 'membership of' : 'access to'} {itemName}{level ? ` (${level})` : ''} ends now{throughGroups ? '; what they hold through groups stays' : ''}. To give it back, grant it again.</p>,
      confirm: `Revoke ${who}`,
      action: () => kind === 'resource'
        ? del('/resources/{resource_id}/users/{user_id}', { path: { resource_id: id, user_id: holder.user_id }, query })
        : del('/groups/{group_id}/users/{user_id}', { path: { group_id: id, user_id: holder.user_id }, query }),
      done: loaded.reload,
    });
  };
  return (
    <Pending loaded={loaded}>{({ item, holders, owner, connector, carrier, propagations, teamNames }) => (
      <Page title={item.name ?? id}>
        <p>{item.description || `A ${kind}.`}</p>
        <dl class="facts">
          <dt>Owner</dt><dd>{owner ? owner.name : item.admin_owner_id ?? 'none'}</dd>
          <dt>Longest grant by request</dt><dd>{minutes(item.max_duration)}</dd>
          <dt>Extensions</dt><dd>{item.extensions_duration_in_minutes ? `requested, for up to ${minutes(item.extensions_duration_in_minutes)}` : 'none (a new request renews)'}</dd>
        </dl>
        <p><Link href={`/console/requests/new?${kind}_id=${id}`} class="button">Request access to {item.name}</Link></p>
        {admin && <p><Link href={`/console/${kind}s/${id}/settings`}>Settings of {item.name}</Link></p>}
        <BreakGlassOnItem me={props.me} kind={kind} item={item} id={id} owner={owner} onSaved={loaded.reload} />
        <h2>Reviewer stages</h2>
        {(item.request_configurations ?? []).map((c, i) => (
          <div key={i}>
            <p>{c.condition ? 'For members of certain groups' : 'For everyone'}: {reviewWords(c, owner?.name)}</p>
            {c.allow_requests && !c.auto_approval && (c.reviewer_stages ?? []).length > 0 && (
              <ol>{(c.reviewer_stages ?? []).map((s) => <li key={s.stage}>{stageWords(s, teamNames)}</li>)}</ol>
            )}
          </div>
        ))}
        <h2>Holders</h2>
        {holders.length === 0 ? <p>Nobody in Gatehouse holds it.</p> : (
          <div class="table-wrap">
            <table class="stack">
              <caption>Who holds {item.name}</caption>
              <thead><tr><th scope="col">Person</th><th scope="col">Level</th><th scope="col">Path</th><th scope="col">Until</th><th scope="col">Propagation</th>{isAdmin(props.me) && <th scope="col"><span class="sr-only">Actions</span></th>}</tr></thead>
              <tbody>{holders.map((h) => (
                <tr key={`${h.user_id}${h.access_level?.access_level_remote_id ?? ''}`}>
                  <td data-label="Person">{isAdmin(props.me) ? <Link href={`/console/users/${h.user_id}`}>{h.full_name}</Link> : h.full_name}</td>
                  <td data-label="Level">{h.access_level?.access_level_name || (kind === 'group' ? 'Member' : 'Default')}</td>
                  <td data-label="Path">{'has_direct_access' in h && h.has_direct_access === false ? `through ${h.num_access_paths} group${h.num_access_paths === 1 ? '' : 's'}` : 'direct'}</td>
                  <td data-label="Until">{h.expiration_date ? when(h.expiration_date) : 'no expiry'}</td>
                  <td data-label="Propagation">{h.propagation_status ? propagationWords(h.propagation_status.status) : '—'}</td>
                  {isAdmin(props.me) && <td class="row-actions">{!('has_direct_access' in h && h.has_direct_access === false) && (
                    <button type="button" class="danger" onClick={revoke(h, item.name ?? id, 'num_access_paths' in h && (h.num_access_paths ?? 0) > 1)}>Revoke {h.full_name}</button>
                  )}</td>}
                </tr>
              ))}</tbody>
            </table>
          </div>
        )}
        {kind === 'group' && <GroupOnCall groupId={id} groupName={item.name ?? id} admin={admin} names={new Map(holders.map((h) => [h.user_id, h.full_name ?? h.user_id]))} changed={loaded.reload} />}
        {admin && connector && <HeldOutside kind={kind} id={id} name={item.name ?? id} levels={item.access_levels ?? []} />}
        {admin && connector !== undefined && (
          <section aria-labelledby="propagation">
            <h2 id="propagation">Propagation</h2>
            {connector === null ? <p>No connector: access is in effect the moment it is written.</p> : (
              <>
                <p>Carried by its app's connector ({carrier}); last successful sync {when(connector.last_successful_sync)}.</p>
                <p role="status">{propagations.some((p) => p.state !== 'FAILED')
                  ? 'Changes are on their way: this page updates itself until they are carried.'
                  : propagations.length === 0 ? `Every change to ${item.name} has reached the connector.` : 'Gatehouse gave up on these changes: retry them once the system is fixed.'}</p>
                {propagations.length > 0 && (
                  <div class="table-wrap">
                    <table class="stack">
                      <caption>Changes to {item.name} not yet carried</caption>
                      <thead><tr><th scope="col">Who</th><th scope="col">Change</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Next attempt</th></tr></thead>
                      <tbody>{propagations.map((p) => (
                        <tr key={`${p.edge_kind}${p.principal_id}${p.access_level_remote_id}`}>
                          <td data-label="Who">{p.principal_name ?? p.principal_id}</td>
                          <td data-label="Change">{p.desired === 'PRESENT' ? 'grant' : 'removal'}</td>
                          <td data-label="Status">{p.state === 'FAILED' ? `${propagationWords(p.status)} (gave up)` : propagationWords(p.status)}</td>
                          <td data-label="Attempts">{p.attempts}</td>
                          <td data-label="Last error">{p.last_error ?? '—'}</td>
                          <td data-label="Next attempt">{p.next_attempt_at ? when(p.next_attempt_at) : '—'}</td>
                        </tr>
                      ))}</tbody>
                    </table>
                  </div>
                )}
                {item.app_id && propagations.some((p) => p.state === 'FAILED') && <button type="button" disabled={action.busy} onClick={retry(item.app_id)}>Retry failed propagations</button>}
              </>
            )}
          </section>
        )}
        {isAdmin(props.me) && (
          <form onSubmit={grant} class="stack">
            <h2>Grant access</h2>
            <div class="field"><label for="grant-email">Person's email</label><input id="grant-email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} /></div>
            <div class="field"><label for="grant-level">Level</label>
              <select id="grant-level" value={grantLevel} onChange={(e) => setLevel(e.currentTarget.value)} aria-describedby={grantsNothing ? 'grant-level-note' : undefined}>
                {offered.map((l) => <option key={l.access_level_remote_id} value={l.access_level_remote_id}>{l.access_level_name || "Default"}</option>)}
              </select>
              {grantsNothing && <p class="notice" id="grant-level-note">{grantsNothing}</p>}</div>
            <div class="field"><label for="grant-duration">For how long</label>
              <select id="grant-duration" value={duration ?? grantDefault} onChange={(e) => setDuration(Number(e.currentTarget.value))}>
                {durationChoices(bounds.max, bounds.suggested).map((m) => <option key={m} value={m}>{durationChoice(m, bounds.max, bounds.suggested)}</option>)}
                <option value={0}>indefinitely (no expiry)</option>
              </select></div>
            <button type="submit" class="primary" disabled={action.busy}>Grant</button>
          </form>
        )}
        <Problem message={action.error} />
        {confirm.dialog}
      </Page>
    )}</Pending>
  );
}

export function PersonPage(props: { me: Me; id: string }) {
  const admin = isAdmin(props.me);
  const loaded = useLoad(async () => {
    const person = await get('/users/{user_id}', { path: { user_id: props.id } });
    // Admins, and the person's manager (who reads their direct reports' access whole: docs/visibility.md).
    const allowed = admin || person.manager_id === props.me.user.user_id;
    const [holdings, manager] = await Promise.all([
      allowed ? holdingsOf(props.id) : Promise.resolve([]),
      person.manager_id ? get('/users/{user_id}', { path: { user_id: person.manager_id } }).catch(() => undefined) : Promise.resolve(undefined),
    ]);
    return { person, allowed, holdings, manager };
  }, [props.id], (data) => !data.holdings.some(carrying));
  const action = useAction();
  const confirm = useConfirm();
  const offboard = (name: string, holdings: Holding[]) => () => confirm.ask({
    title: `Offboard ${name}?`,
    body: (
      <>
        <p>{name} can no longer sign in, and what they hold ends now: their access, their API tokens and their sign-in sessions.</p>
        {holdings.length > 0 ? (
          <ul>{holdings.map((h) => <li key={`${h.kind}${h.id}${h.level}`}>{h.name}{h.level && h.level !== 'Default' && h.level !== 'Member' ? ` (${h.level})` : ''}</li>)}</ul>
        ) : <p>They hold no access.</p>}
      </>
    ),
    confirm: `Offboard ${name}`,
    action: () => put('/users/{user_id}', { path: { user_id: props.id }, body: { hr_idp_status: 'DEPROVISIONED' } }),
    done: loaded.reload,
  });
  return (
    <Pending loaded={loaded}>{({ person, allowed, holdings, manager }) => (
      <Page title={person.full_name}>
        {!allowed ? (
          <p class="error" role="alert">This page is for organization admins and {person.full_name}'s manager.</p>
        ) : (
          <>
            <dl class="facts">
              <dt>Email</dt><dd>{person.email}</dd>
              <dt>Role</dt><dd>{roleWords(person.organization_role)}</dd>
              <dt>Status</dt><dd>{userStatusWords(person.hr_idp_status)}</dd>
              {person.position && <><dt>Position</dt><dd>{person.position}</dd></>}
              {manager && <><dt>Manager</dt><dd>{manager.user_id === props.me.user.user_id ? 'You' : manager.full_name}</dd></>}
            </dl>
            <HoldingsTable holdings={holdings} caption={`What ${person.full_name} holds`} />
            {admin && <p><Link href={`/console/events?actor_filter=${props.id}`}>What they did (audit trail)</Link></p>}
            {admin && person.hr_idp_status === 'ACTIVE' && <button type="button" class="danger" disabled={action.busy} onClick={offboard(person.full_name ?? person.email, holdings)}>Offboard {person.full_name}</button>}
            <Problem message={action.error} />
            {confirm.dialog}
            {admin && <PersonAdmin me={props.me} person={person} onChanged={loaded.reload} />}
          </>
        )}
      </Page>
    )}</Pending>
  );
}

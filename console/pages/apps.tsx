// Apps (admins): the list and a new app; an app's page (its settings, its resources and groups, a new
// one, deleting it) with its connector (console/pages/connector.tsx).
import { useState } from 'preact/hooks';
import { all, del, get, post, put, type Me, type Schema } from '../api.ts';
import { connectorKinds, ConnectorPanel, kindOfApp } from './connector.tsx';
import { AdminOnly, Link, navigate, Page, Pending, Problem, useAction, useConfirm, useLoad } from '../ui.tsx';

type AppType = Schema<'AppTypeEnum'>;
type Owner = Schema<'Owner'>;

/** The app types offered first, in words; any other type an app has is shown as the API spells it. */
const APP_TYPES: [AppType, string][] = [
  ['CUSTOM', 'Kept in Gatehouse (no connector)'],
  ['POSTGRES', 'PostgreSQL (built-in connector)'],
  ['CUSTOM_CONNECTOR', 'Opal-protocol connector'],
  ['AWS', 'AWS'], ['GCP', 'Google Cloud'], ['GIT_HUB', 'GitHub'], ['GIT_LAB', 'GitLab'], ['GOOGLE_WORKSPACE', 'Google Workspace'],
  ['OKTA_DIRECTORY', 'Okta'], ['MYSQL', 'MySQL'], ['SALESFORCE', 'Salesforce'], ['SLACK', 'Slack'], ['SNOWFLAKE', 'Snowflake'],
];

export const appTypeWords = (type: string): string => APP_TYPES.find(([t]) => t === type)?.[1] ?? type;

/** Owners (teams) by id, for choosing and naming them. */
export const ownersList = () => all('/owners');

export function OwnerSelect(props: { id: string; owners: Owner[]; value: string; onChange: (id: string) => void; required?: boolean; label?: string }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label ?? 'Owner (the team that administers it)'}</label>
      <select id={props.id} required={props.required} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">Choose a team…</option>
        {props.owners.map((o) => <option key={o.owner_id} value={o.owner_id}>{o.name ?? o.owner_id}</option>)}
      </select>
      {props.owners.length === 0 && <p class="hint">There are no teams yet: create one on the Teams page first.</p>}
    </div>
  );
}

export function Apps(props: { me: Me }) {
  const loaded = useLoad(async () => {
    const [apps, owners] = await Promise.all([get('/apps'), ownersList()]);
    return { apps: apps.apps, owners };
  }, []);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [type, setType] = useState<AppType>('CUSTOM');
  const [owner, setOwner] = useState('');
  const action = useAction();
  const create = async (e: Event) => {
    e.preventDefault();
    let id = '';
    if (await action.run(async () => {
      id = (await post('/apps', { body: { name: name.trim(), description, app_type: type, admin_owner_id: owner } })).app_id;
    })) navigate(`/console/apps/${id}`);
  };
  return (
    <AdminOnly me={props.me}>
      <Page title="Apps">
        <p class="hint">An app is a system whose access Gatehouse keeps: its resources (roles, databases…) and groups are what people request. A PostgreSQL or Opal-protocol app has a connector that carries access there. The questions requests ask are <Link href="/console/request-templates">request templates</Link>.</p>
        <Pending loaded={loaded}>{({ apps, owners }) => (
          <>
            {apps.length === 0 ? <p>No apps yet.</p> : (
              <div class="table-wrap">
                <table class="stack">
                  <caption>Apps</caption>
                  <thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Owner</th><th scope="col">Description</th></tr></thead>
                  <tbody>{apps.map((a) => (
                    <tr key={a.app_id}>
                      <td data-label="Name"><Link href={`/console/apps/${a.app_id}`}>{a.name}</Link></td>
                      <td data-label="Kind">{appTypeWords(a.app_type)}</td>
                      <td data-label="Owner">{owners.find((o) => o.owner_id === a.admin_owner_id)?.name ?? '—'}</td>
                      <td data-label="Description">{a.description || '—'}</td>
                    </tr>
                  ))}</tbody>
                </table>
              </div>
            )}
            <form onSubmit={create}>
              <h2>Add an app</h2>
              <div class="field"><label for="app-name">Name</label><input id="app-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} /></div>
              <div class="field"><label for="app-description">Description</label><input id="app-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} /></div>
              <div class="field"><label for="app-type">Kind</label>
                <select id="app-type" value={type} onChange={(e) => setType(e.currentTarget.value as AppType)}>
                  {APP_TYPES.map(([t, words]) => <option key={t} value={t}>{words}</option>)}
                </select>
              </div>
              <OwnerSelect id="app-owner" owners={owners} value={owner} onChange={setOwner} required />
              <button type="submit" class="primary" disabled={action.busy}>Add app</button>
              <Problem message={action.error} />
            </form>
          </>
        )}</Pending>
      </Page>
    </AdminOnly>
  );
}

type ConnectorKind = Schema<'ConnectorType'>;

/** The resource types offered for a new resource of an app whose connector is `kind` (the first is the default). */
function resourceTypesFor(kind: ConnectorKind | undefined): [Schema<'ResourceTypeEnum'>, string][] {
  if (kind) return [[kind.resource_type, `Resource of the connector (${kind.name})`], ['CUSTOM', 'Kept in Gatehouse only']];
  return [['CUSTOM', 'Resource'], ['CUSTOM_CONNECTOR', 'Resource of a connector']];
}

function NewItem(props: { app: Schema<'App'>; connector: ConnectorKind | undefined; owners: Owner[]; onCreated: (path: string) => void }) {
  const { app } = props;
  const connected = props.connector !== undefined;
  const [kind, setKind] = useState<'resource' | 'group'>('resource');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [remoteId, setRemoteId] = useState('');
  const [owner, setOwner] = useState('');
  const types = resourceTypesFor(props.connector);
  const [type, setType] = useState(types[0]![0]);
  const action = useAction();
  const create = async (e: Event) => {
    e.preventDefault();
    const remote = remoteId.trim();
    const common = { name: name.trim(), description, app_id: app.app_id, ...(owner && { admin_owner_id: owner }) };
    let path = '';
    if (await action.run(async () => {
      if (kind === 'resource') {
        const created = await post('/resources', { body: { ...common, resource_type: type, ...(remote && { remote_resource_id: remote, remote_resource_name: common.name }) } });
        path = `/console/resources/${created.resource_id}/settings`;
      } else {
        const created = await post('/groups', { body: { ...common, group_type: connected ? 'CONNECTOR_GROUP' : 'OPAL_GROUP', ...(remote && { remote_group_id: remote }) } });
        path = `/console/groups/${created.group_id}/settings`;
      }
    })) props.onCreated(path);
  };
  return (
    <form onSubmit={create}>
      <h2>Add a resource or group</h2>
      <fieldset>
        <legend>What to add</legend>
        <label class="choice"><input type="radio" name="item-kind" checked={kind === 'resource'} onChange={() => setKind('resource')} /> A resource (a role, a database, a repository…)</label>
        <label class="choice"><input type="radio" name="item-kind" checked={kind === 'group'} onChange={() => setKind('group')} /> A group (people given access as one)</label>
      </fieldset>
      <div class="field"><label for="item-name">Name</label><input id="item-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} /></div>
      <div class="field"><label for="item-description">Description</label><input id="item-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} /></div>
      {kind === 'resource' && types.length > 1 && (
        <div class="field"><label for="item-type">Kind of resource</label>
          <select id="item-type" value={type} onChange={(e) => setType(e.currentTarget.value as Schema<'ResourceTypeEnum'>)}>
            {types.map(([t, words]) => <option key={t} value={t}>{words}</option>)}
          </select>
        </div>
      )}
      {connected && (
        <div class="field"><label for="item-remote">Its name in {app.name} (remote id)</label>
          <input id="item-remote" aria-describedby="item-remote-hint" value={remoteId} onInput={(e) => setRemoteId(e.currentTarget.value)} />
          <p class="hint" id="item-remote-hint">What the connector calls it. A sync adds what it finds, so this is only for what is not there yet.</p>
        </div>
      )}
      <OwnerSelect id="item-owner" owners={props.owners} value={owner} onChange={setOwner} label="Owner (the app's owner unless you choose)" />
      <button type="submit" class="primary" disabled={action.busy}>Add {kind}</button>
      <Problem message={action.error} />
    </form>
  );
}

export function AppPage(props: { me: Me; id: string }) {
  const { id } = props;
  const loaded = useLoad(async () => {
    const [app, owners, resources, groups, kinds] = await Promise.all([
      get('/apps/{app_id}', { path: { app_id: id } }),
      ownersList(),
      all('/resources', { query: { app_id: id } }),
      all('/groups', { query: { app_id: id } }),
      connectorKinds(),
    ]);
    return { app, owners, resources, groups, kind: kindOfApp(kinds, app.app_type) };
  }, [id]);
  const confirm = useConfirm();
  const removeApp = (app: Schema<'App'>) => confirm.ask({
    title: `Delete the app ${app.name}?`,
    body: <p>{app.name} leaves Gatehouse, with its connector if it has one. An app that still has resources or groups cannot be deleted: delete them first.</p>,
    confirm: `Delete ${app.name}`,
    action: () => del('/apps/{app_id}', { path: { app_id: app.app_id } }),
    done: () => navigate('/console/apps'),
  });
  return (
    <AdminOnly me={props.me}>
      <Pending loaded={loaded}>{({ app, owners, resources, groups, kind }) => (
        <Page title={app.name}>
          <p><Link href="/console/apps">All apps</Link></p>
          <AppSettings app={app} owners={owners} onSaved={loaded.reload} />
          <h2>Resources and groups</h2>
          {resources.length + groups.length === 0 ? <p>{app.name} has no resources or groups yet.</p> : (
            <div class="table-wrap">
              <table class="stack">
                <caption>What {app.name} holds</caption>
                <thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Owner</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
                <tbody>
                  {[...resources.map((r) => ({ kind: 'resource' as const, id: r.resource_id, name: r.name ?? r.resource_id, owner: r.admin_owner_id })),
                    ...groups.map((g) => ({ kind: 'group' as const, id: g.group_id, name: g.name ?? g.group_id, owner: g.admin_owner_id }))].map((item) => (
                    <tr key={item.id}>
                      <td data-label="Name"><Link href={`/console/${item.kind}s/${item.id}`}>{item.name}</Link></td>
                      <td data-label="Kind">{item.kind}</td>
                      <td data-label="Owner">{owners.find((o) => o.owner_id === item.owner)?.name ?? '—'}</td>
                      <td class="row-actions"><Link href={`/console/${item.kind}s/${item.id}/settings`}>Settings of {item.name}</Link></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <NewItem key={app.app_type} app={app} connector={kind} owners={owners} onCreated={navigate} />
          <ConnectorPanel app={app} kind={kind} onSynced={loaded.reload} />
          <h2>Delete</h2>
          <button type="button" class="danger" onClick={() => removeApp(app)}>Delete the app {app.name}</button>
          {confirm.dialog}
        </Page>
      )}</Pending>
    </AdminOnly>
  );
}

function AppSettings(props: { app: Schema<'App'>; owners: Owner[]; onSaved: () => void }) {
  const { app } = props;
  const [name, setName] = useState(app.name);
  const [description, setDescription] = useState(app.description);
  const [owner, setOwner] = useState(app.admin_owner_id);
  const [type, setType] = useState<AppType>(app.app_type);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const save = async (e: Event) => {
    e.preventDefault();
    setSaved(false);
    if (await action.run(() => put('/apps/{app_id}', { path: { app_id: app.app_id }, body: { name: name.trim(), description, admin_owner_id: owner, app_type: type } }))) {
      setSaved(true);
      props.onSaved();
    }
  };
  const types = APP_TYPES.some(([t]) => t === app.app_type) ? APP_TYPES : [...APP_TYPES, [app.app_type, app.app_type] as [AppType, string]];
  return (
    <form onSubmit={save}>
      <h2>Settings</h2>
      <div class="field"><label for="edit-app-name">Name</label><input id="edit-app-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} /></div>
      <div class="field"><label for="edit-app-description">Description</label><input id="edit-app-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} /></div>
      <div class="field"><label for="edit-app-type">Kind</label>
        <select id="edit-app-type" value={type} onChange={(e) => setType(e.currentTarget.value as AppType)}>
          {types.map(([t, words]) => <option key={t} value={t}>{words}</option>)}
        </select>
      </div>
      <OwnerSelect id="edit-app-owner" owners={props.owners} value={owner} onChange={setOwner} required />
      <button type="submit" disabled={action.busy}>Save settings</button>
      {saved && <p role="status">Saved.</p>}
      <Problem message={action.error} />
    </form>
  );
}

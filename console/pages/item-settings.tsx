// A resource's or group's settings (admins): name, description and owner; how it is requested (request
// configurations with their reviewer stages and request templates); who sees it; its tags; deleting it.
import { useState } from 'preact/hooks';
import type { paths } from '../api-types.ts';
import { all, del, get, post, put, type Me, type Schema } from '../api.ts';
import { OwnerSelect, ownersList } from './apps.tsx';
import { AdminOnly, Link, minutes, navigate, Page, Pending, Problem, useAction, useConfirm, useLoad } from '../ui.tsx';
import { BreakGlassSettings } from './break-glass.tsx';

type Kind = 'resource' | 'group';
type Item = Schema<'Resource'> | Schema<'Group'>;
type Owner = Schema<'Owner'>;
type Named = { id: string; name: string };
/** A request configuration as PUT /v1/resources takes it (groups take the same shape). */
type Config = NonNullable<paths['/v1/resources']['put']['requestBody']['content']['application/json']['resources'][number]['request_configurations']>[number];
type Stage = NonNullable<Config['reviewer_stages']>[number];

const MAX_DURATIONS = [-1, 60, 240, 720, 1440, 3 * 1440, 7 * 1440, 30 * 1440, 90 * 1440, 365 * 1440];
const SUGGESTED = [0, 60, 240, 1440, 7 * 1440, 30 * 1440];
const EXTENSIONS = [0, 60, 240, 1440, 7 * 1440, 30 * 1440];

/** The item's configurations as the editor keeps them: the default first, built from the top-level settings when none is stored. */
function configsOf(item: Item): Config[] {
  const stored = [...(item.request_configurations ?? [])].sort((a, b) => a.priority - b.priority);
  if (stored.length > 0) {
    return stored.map(({ organization_id: _org, ...c }) => ({ ...c, condition: c.condition ?? null, reviewer_stages: (c.reviewer_stages ?? []).map((s) => ({ ...s })) }));
  }
  return [{
    allow_requests: item.is_requestable ?? true,
    auto_approval: item.auto_approval ?? false,
    require_mfa_to_request: item.require_mfa_to_request ?? false,
    require_support_ticket: item.require_support_ticket ?? false,
    max_duration_minutes: item.max_duration ?? -1,
    recommended_duration_minutes: item.recommended_duration ?? 0,
    extensions_duration_in_minutes: item.extensions_duration_in_minutes ?? 0,
    request_template_id: item.request_template_id ?? null,
    reviewer_stages: [],
    priority: 0,
    condition: null,
  }];
}

/** A duration choice whose options always include the current value. */
function DurationSelect(props: { id: string; label: string; value: number | undefined; options: number[]; none: string; onChange: (m: number) => void }) {
  const value = props.value ?? props.options[0]!;
  const options = props.options.includes(value) ? props.options : [...props.options, value].sort((a, b) => a - b);
  return (
    <div class="field"><label for={props.id}>{props.label}</label>
      <select id={props.id} value={value} onChange={(e) => props.onChange(Number(e.currentTarget.value))}>
        {options.map((m) => <option key={m} value={m}>{m === 0 ? props.none : minutes(m)}</option>)}
      </select>
    </div>
  );
}

/** Ticks for choosing several of a list (owners, groups), in a box that scrolls on its own. */
function CheckList(props: { legend: string; options: Named[]; chosen: string[]; onChange: (ids: string[]) => void; empty: string }) {
  const toggle = (id: string, on: boolean) => props.onChange(on ? [...props.chosen, id] : props.chosen.filter((c) => c !== id));
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.options.length === 0 ? <p class="hint">{props.empty}</p> : (
        <div class="checklist">{props.options.map((o) => (
          <label key={o.id} class="choice"><input type="checkbox" checked={props.chosen.includes(o.id)} onChange={(e) => toggle(o.id, e.currentTarget.checked)} /> {o.name}</label>
        ))}</div>
      )}
    </fieldset>
  );
}

function StageEditor(props: { prefix: string; stage: Stage; number: number; owners: Named[]; onChange: (s: Stage) => void; onRemove: () => void }) {
  const { stage, prefix } = props;
  const set = (change: Partial<Stage>) => props.onChange({ ...stage, ...change });
  return (
    <fieldset>
      <legend>Stage {props.number}</legend>
      <label class="choice"><input type="checkbox" checked={stage.require_manager_approval} onChange={(e) => set({ require_manager_approval: e.currentTarget.checked })} /> The requester's manager</label>
      <label class="choice"><input type="checkbox" checked={stage.require_admin_approval ?? false} onChange={(e) => set({ require_admin_approval: e.currentTarget.checked })} /> An admin</label>
      <CheckList legend="Teams whose members review" options={props.owners} chosen={stage.owner_ids} onChange={(ids) => set({ owner_ids: ids })} empty="There are no teams yet." />
      <div class="field"><label for={`${prefix}-operator`}>Who must approve</label>
        <select id={`${prefix}-operator`} value={stage.operator} aria-describedby={`${prefix}-operator-help`} onChange={(e) => set({ operator: e.currentTarget.value as Stage['operator'] })}>
          <option value="AND">All of those chosen above: the manager, an admin and each team</option>
          <option value="OR">Any one of those chosen above</option>
        </select>
        <p class="hint" id={`${prefix}-operator-help`}>A team approves when any one of its members does; it never needs every member.</p>
      </div>
      <button type="button" onClick={props.onRemove}>Remove stage {props.number}</button>
    </fieldset>
  );
}

function ConfigEditor(props: { index: number; config: Config; owners: Named[]; groups: Named[]; templates: Named[]; onChange: (c: Config) => void; onRemove: () => void }) {
  const { config, index } = props;
  const prefix = `config-${index}`;
  const set = (change: Partial<Config>) => props.onChange({ ...config, ...change });
  const stages = config.reviewer_stages ?? [];
  const setStages = (next: Stage[]) => set({ reviewer_stages: next.map((s, i) => ({ ...s, stage: i + 1 })) });
  return (
    <fieldset class="config">
      <legend>{index === 0 ? 'For everyone (unless a rule below applies)' : `Rule ${index}: for members of chosen groups`}</legend>
      {index > 0 && (
        <CheckList legend="Applies to members of" options={props.groups} chosen={config.condition?.group_ids ?? []}
          onChange={(ids) => set({ condition: { group_ids: ids } })} empty="There are no groups to choose." />
      )}
      <label class="choice"><input type="checkbox" checked={config.allow_requests} onChange={(e) => set({ allow_requests: e.currentTarget.checked })} /> People may request it</label>
      <label class="choice"><input type="checkbox" checked={config.auto_approval} onChange={(e) => set({ auto_approval: e.currentTarget.checked })} /> Approved without review</label>
      <label class="choice"><input type="checkbox" checked={config.require_support_ticket} onChange={(e) => set({ require_support_ticket: e.currentTarget.checked })} /> A support ticket is required</label>
      <DurationSelect id={`${prefix}-max`} label="Longest grant by request" value={config.max_duration_minutes} options={MAX_DURATIONS} none="indefinitely" onChange={(m) => set({ max_duration_minutes: m })} />
      <DurationSelect id={`${prefix}-suggested`} label="Suggested duration" value={config.recommended_duration_minutes} options={SUGGESTED} none="none suggested" onChange={(m) => set({ recommended_duration_minutes: m })} />
      <DurationSelect id={`${prefix}-extension`} label="Extensions may ask for up to" value={config.extensions_duration_in_minutes} options={EXTENSIONS} none="no extensions (a new request renews)" onChange={(m) => set({ extensions_duration_in_minutes: m })} />
      <div class="field"><label for={`${prefix}-template`}>Questions asked (request template)</label>
        <select id={`${prefix}-template`} value={config.request_template_id ?? ''} onChange={(e) => set({ request_template_id: e.currentTarget.value || null })}>
          <option value="">Only the reason</option>
          {props.templates.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
        </select>
      </div>
      {!config.auto_approval && config.allow_requests && (
        <>
          <p><strong>Reviewer stages</strong> — a request passes each stage in turn.{stages.length === 0 && ' No stage: an admin reviews.'}</p>
          {stages.map((s, i) => (
            <StageEditor key={i} prefix={`${prefix}-stage-${i}`} stage={s} number={i + 1} owners={props.owners}
              onChange={(next) => setStages(stages.map((old, j) => (j === i ? next : old)))} onRemove={() => setStages(stages.filter((_, j) => j !== i))} />
          ))}
          <button type="button" onClick={() => setStages([...stages, { operator: 'AND', require_manager_approval: false, require_admin_approval: false, owner_ids: [] }])}>Add a reviewer stage</button>
        </>
      )}
      {index > 0 && <p><button type="button" onClick={props.onRemove}>Remove rule {index}</button></p>}
    </fieldset>
  );
}

function RequestSettings(props: { kind: Kind; item: Item; id: string; owners: Named[]; groups: Named[]; templates: Named[]; onSaved: () => void }) {
  const [configs, setConfigs] = useState<Config[]>(() => configsOf(props.item));
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const save = async (e: Event) => {
    e.preventDefault();
    setSaved(false);
    const request_configurations = configs.map((c, i) => ({ ...c, priority: i, condition: i === 0 ? null : c.condition }));
    if (await action.run(() => props.kind === 'resource'
      ? put('/resources', { body: { resources: [{ resource_id: props.id, request_configurations }] } })
      : put('/groups', { body: { groups: [{ group_id: props.id, request_configurations }] } }))) {
      setSaved(true);
      props.onSaved();
    }
  };
  const addRule = () => setConfigs([...configs, { ...configs[0]!, reviewer_stages: (configs[0]!.reviewer_stages ?? []).map((s) => ({ ...s })), condition: { group_ids: [] }, priority: configs.length }]);
  return (
    <form onSubmit={save} aria-labelledby="requests-heading">
      <h2 id="requests-heading">Requests and reviewers</h2>
      {props.item.configuration_template_id && <p class="notice">This {props.kind} follows a configuration template, which sets its reviewers: changes to them are refused while it does.</p>}
      {configs.map((c, i) => (
        <ConfigEditor key={i} index={i} config={c} owners={props.owners} groups={props.groups} templates={props.templates}
          onChange={(next) => setConfigs(configs.map((old, j) => (j === i ? next : old)))} onRemove={() => setConfigs(configs.filter((_, j) => j !== i))} />
      ))}
      <div class="actions">
        <button type="button" onClick={addRule}>Add a rule for members of certain groups</button>
        <button type="submit" class="primary" disabled={action.busy}>Save requests and reviewers</button>
      </div>
      {saved && <p role="status">Saved.</p>}
      <Problem message={action.error} />
    </form>
  );
}

function General(props: { kind: Kind; item: Item; id: string; owners: Owner[]; onSaved: () => void }) {
  const { item } = props;
  const [name, setName] = useState(item.name ?? '');
  const [description, setDescription] = useState(item.description ?? '');
  const [owner, setOwner] = useState(item.admin_owner_id ?? '');
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const save = async (e: Event) => {
    e.preventDefault();
    setSaved(false);
    const change = { name: name.trim(), description, admin_owner_id: owner };
    if (await action.run(() => props.kind === 'resource'
      ? put('/resources', { body: { resources: [{ resource_id: props.id, ...change }] } })
      : put('/groups', { body: { groups: [{ group_id: props.id, ...change }] } }))) {
      setSaved(true);
      props.onSaved();
    }
  };
  return (
    <form onSubmit={save}>
      <h2>About it</h2>
      <div class="field"><label for="item-edit-name">Name</label><input id="item-edit-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} /></div>
      <div class="field"><label for="item-edit-description">Description</label><textarea id="item-edit-description" rows={2} value={description} onInput={(e) => setDescription(e.currentTarget.value)} /></div>
      <OwnerSelect id="item-edit-owner" owners={props.owners} value={owner} onChange={setOwner} required />
      <button type="submit" disabled={action.busy}>Save</button>
      {saved && <p role="status">Saved.</p>}
      <Problem message={action.error} />
    </form>
  );
}

function Visibility(props: { kind: Kind; id: string; current: Schema<'VisibilityInfo'>; groups: Named[]; onSaved: () => void }) {
  const [limited, setLimited] = useState(props.current.visibility === 'LIMITED');
  const [chosen, setChosen] = useState<string[]>(props.current.visibility_group_ids ?? []);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const save = async (e: Event) => {
    e.preventDefault();
    setSaved(false);
    const body = limited ? { visibility: 'LIMITED' as const, visibility_group_ids: chosen } : { visibility: 'GLOBAL' as const, visibility_group_ids: [] };
    if (await action.run(() => props.kind === 'resource'
      ? put('/resources/{resource_id}/visibility', { path: { resource_id: props.id }, body })
      : put('/groups/{group_id}/visibility', { path: { group_id: props.id }, body }))) {
      setSaved(true);
      props.onSaved();
    }
  };
  return (
    <form onSubmit={save}>
      <h2>Who sees it</h2>
      <fieldset>
        <legend>Visible to</legend>
        <label class="choice"><input type="radio" name="visibility" checked={!limited} onChange={() => setLimited(false)} /> Everyone</label>
        <label class="choice"><input type="radio" name="visibility" checked={limited} onChange={() => setLimited(true)} /> Only members of chosen groups (and admins, its owner's team and those who hold it)</label>
      </fieldset>
      {limited && <CheckList legend="Groups that see it" options={props.groups.filter((g) => g.id !== props.id)} chosen={chosen} onChange={setChosen} empty="There are no groups to choose." />}
      <button type="submit" disabled={action.busy}>Save who sees it</button>
      {saved && <p role="status">Saved.</p>}
      <Problem message={action.error} />
    </form>
  );
}

function Tags(props: { kind: Kind; id: string; name: string; tags: Schema<'Tag'>[]; onSaved: () => void }) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const action = useAction();
  const confirm = useConfirm();
  const label = (t: Schema<'Tag'>) => (t.value ? `${t.key}: ${t.value}` : t.key ?? t.tag_id);
  const path = (tagId: string) => (props.kind === 'resource' ? { tag_id: tagId, resource_id: props.id } : { tag_id: tagId, group_id: props.id });
  const attach = async (e: Event) => {
    e.preventDefault();
    if (await action.run(async () => {
      const wanted = { tag_key: key.trim(), tag_value: value.trim() };
      // The tag with that key and value, created when it does not exist yet.
      const tag = await get('/tag', { query: wanted }).catch(() => post('/tag', { body: wanted }));
      if (props.kind === 'resource') await post('/tags/{tag_id}/resources/{resource_id}', { path: { tag_id: tag.tag_id, resource_id: props.id } });
      else await post('/tags/{tag_id}/groups/{group_id}', { path: { tag_id: tag.tag_id, group_id: props.id } });
    })) {
      setKey('');
      setValue('');
      props.onSaved();
    }
  };
  const detach = (t: Schema<'Tag'>) => confirm.ask({
    title: `Remove the tag ${label(t)} from ${props.name}?`,
    body: <p>Access reviews, rules and filters that choose by this tag stop finding {props.name}. The tag itself stays.</p>,
    confirm: 'Remove the tag',
    action: () => props.kind === 'resource'
      ? del('/tags/{tag_id}/resources/{resource_id}', { path: path(t.tag_id) as { tag_id: string; resource_id: string } })
      : del('/tags/{tag_id}/groups/{group_id}', { path: path(t.tag_id) as { tag_id: string; group_id: string } }),
    done: props.onSaved,
  });
  return (
    <section aria-labelledby="tags-heading">
      <h2 id="tags-heading">Tags</h2>
      {props.tags.length === 0 ? <p>No tags.</p> : (
        <ul class="plain">{props.tags.map((t) => (
          <li key={t.tag_id}><span class="wrap">{label(t)}</span> <button type="button" class="danger" onClick={() => detach(t)}>Remove the tag {label(t)}</button></li>
        ))}</ul>
      )}
      <form onSubmit={attach} class="filters">
        <div class="field"><label for="tag-key">Key</label><input id="tag-key" required value={key} onInput={(e) => setKey(e.currentTarget.value)} /></div>
        <div class="field"><label for="tag-value">Value (optional)</label><input id="tag-value" value={value} onInput={(e) => setValue(e.currentTarget.value)} /></div>
        <button type="submit" disabled={action.busy}>Add the tag</button>
      </form>
      <Problem message={action.error} />
      {confirm.dialog}
    </section>
  );
}

export function ItemSettings(props: { me: Me; kind: Kind; id: string }) {
  const { kind, id } = props;
  const loaded = useLoad(async () => {
    const item: Item = kind === 'resource'
      ? await get('/resources/{resource_id}', { path: { resource_id: id } })
      : await get('/groups/{group_id}', { path: { group_id: id } });
    const [owners, groups, templates, visibility, tags, holders, app] = await Promise.all([
      ownersList(),
      all('/groups'),
      all('/request-templates'),
      kind === 'resource' ? get('/resources/{resource_id}/visibility', { path: { resource_id: id } }) : get('/groups/{group_id}/visibility', { path: { group_id: id } }),
      kind === 'resource' ? get('/resources/{resource_id}/tags', { path: { resource_id: id } }) : get('/groups/{group_id}/tags', { path: { group_id: id } }),
      kind === 'resource' ? all('/resources/{resource_id}/users', { path: { resource_id: id } }) : all('/groups/{group_id}/users', { path: { group_id: id } }),
      item.app_id ? get('/apps/{app_id}', { path: { app_id: item.app_id } }).catch(() => undefined) : Promise.resolve(undefined),
    ]);
    return { item, owners, groups, templates, visibility, tags: tags.tags, holders, app };
  }, [kind, id]);
  const confirm = useConfirm();
  return (
    <AdminOnly me={props.me}>
      <Pending loaded={loaded}>{({ item, owners, groups, templates, visibility, tags, holders, app }) => {
        const name = item.name ?? id;
        const ownerNames = owners.map((o) => ({ id: o.owner_id, name: o.name ?? o.owner_id }));
        const groupNames = groups.map((g) => ({ id: g.group_id, name: g.name ?? g.group_id }));
        const templateNames = templates.map((t) => ({ id: t.request_template_id, name: t.name }));
        const people = new Set(holders.map((h) => h.user_id)).size;
        const remove = () => confirm.ask({
          title: `Delete the ${kind} ${name}?`,
          body: (
            <ul>
              <li>{people === 0 ? 'Nobody holds it.' : `${people} ${people === 1 ? 'person loses' : 'people lose'} their access to it${app ? `, removed from ${app.name} too where a connector carries it` : ''}.`}</li>
              <li>Requests for it can no longer be made; its settings and tags go.</li>
            </ul>
          ),
          confirm: `Delete ${name}`,
          action: () => kind === 'resource' ? del('/resources/{resource_id}', { path: { resource_id: id } }) : del('/groups/{group_id}', { path: { group_id: id } }),
          done: () => navigate(app ? `/console/apps/${app.app_id}` : '/console/apps'),
        });
        return (
          <Page title={`Settings of ${name}`}>
            <p><Link href={`/console/${kind}s/${id}`}>{name}: who holds it</Link>{app && <> · <Link href={`/console/apps/${app.app_id}`}>The app {app.name}</Link></>}</p>
            <General kind={kind} item={item} id={id} owners={owners} onSaved={loaded.reload} />
            <RequestSettings kind={kind} item={item} id={id} owners={ownerNames} groups={groupNames} templates={templateNames} onSaved={loaded.reload} />
            <Visibility kind={kind} id={id} current={visibility} groups={groupNames} onSaved={loaded.reload} />
            <BreakGlassSettings kind={kind} item={item} id={id} onSaved={loaded.reload} />
            <Tags kind={kind} id={id} name={name} tags={tags} onSaved={loaded.reload} />
            <h2>Delete</h2>
            <button type="button" class="danger" onClick={remove}>Delete the {kind} {name}</button>
            {confirm.dialog}
          </Page>
        );
      }}</Pending>
    </AdminOnly>
  );
}

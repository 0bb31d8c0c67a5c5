// Access rules (admins): a rule keeps its group's members exactly the people whose tags match. List the rules
// with what they match, create one from existing tags (when any of these, unless any of those), pause or resume one.
import { useState } from 'preact/hooks';
import { all, post, put, type Me, type Schema } from '../api.ts';
import { AdminOnly, Link, Page, Pending, Problem, useAction, useLoad } from '../ui.tsx';

type Rule = Schema<'AccessRule'>;
type Tag = Schema<'Tag'>;
type Conjunction = Schema<'RuleConjunction'>;

const tagText = (key: string | undefined, value: string | undefined) => (value ? `${key ?? ''}=${value}` : key ?? '');

/** A conjunction in words: clauses joined by "and", each clause's tags by "or". */
function matchWords(conjunction: Conjunction | undefined): string {
  if (!conjunction) return '';
  return conjunction.clauses.map((c) => c.selectors.map((s) => tagText(s.key, s.value)).join(' or ')).map((c, _, all) => (all.length > 1 ? `(${c})` : c)).join(' and ');
}

/**
 * One clause matching any of `tags`. The API asks each selector for a `connection_id`, which takes no part
 * in matching (Gatehouse's tags belong to no connection): the console sends the tag's own id.
 */
const clauseOf = (tags: Tag[]): Conjunction => ({ clauses: [{ selectors: tags.map((t) => ({ key: t.key ?? '', value: t.value ?? '', connection_id: t.tag_id })) }] });

export function AccessRules(props: { me: Me }) {
  const loaded = useLoad(async () => {
    const [rules, owners, tags] = await Promise.all([all('/access-rules'), all('/owners'), all('/tags')]);
    return { rules, owners, tags };
  }, []);
  const action = useAction();
  const toggle = (rule: Rule) => action.run(() => put('/access-rules/{access_rule_id}', {
    path: { access_rule_id: rule.access_rule_id },
    body: { name: rule.name, description: rule.description, admin_owner_id: rule.admin_owner_id, ruleClauses: rule.ruleClauses, status: rule.status === 'ACTIVE' ? 'PAUSED' : 'ACTIVE' },
  })).then((ok) => ok && loaded.reload());
  return (
    <Page title="Access rules">
      <AdminOnly me={props.me}>
        <p class="hint">An active rule makes its group's members exactly the people whose tags match, and keeps them so as tags change. A paused rule adds and removes no one. <Link href="/console/settings">Settings</Link></p>
        <Pending loaded={loaded}>{({ rules, owners, tags }) => {
          const ownerName = new Map(owners.map((o) => [o.owner_id, o.name ?? o.owner_id]));
          return (
            <>
              {rules.length === 0 ? <p>No access rules yet.</p> : (
                <div class="table-wrap">
                  <table class="stack">
                    <caption>Access rules</caption>
                    <thead><tr><th scope="col">Rule</th><th scope="col">Members: people tagged</th><th scope="col">Team</th><th scope="col">Status</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
                    <tbody>{rules.map((r) => (
                      <tr key={r.access_rule_id}>
                        <td data-label="Rule"><Link href={`/console/groups/${r.access_rule_id}`}>{r.name}</Link>{r.description ? <><br /><span class="hint">{r.description}</span></> : null}</td>
                        <td data-label="Members: people tagged">{matchWords(r.ruleClauses.when)}{r.ruleClauses.unless ? `, unless ${matchWords(r.ruleClauses.unless)}` : ''}</td>
                        <td data-label="Team">{ownerName.get(r.admin_owner_id) ?? r.admin_owner_id}</td>
                        <td data-label="Status">{r.status === 'ACTIVE' ? 'active' : 'paused'}</td>
                        <td class="row-actions"><button type="button" disabled={action.busy} onClick={() => toggle(r)}>{r.status === 'ACTIVE' ? 'Pause' : 'Resume'} {r.name}</button></td>
                      </tr>
                    ))}</tbody>
                  </table>
                </div>
              )}
              <Problem message={action.error} />
              <h2>Create an access rule</h2>
              {owners.length === 0 || tags.length === 0 ? (
                <p>A rule needs a team to own it and tags to match: {owners.length === 0 ? <Link href="/console/teams">create a team</Link> : 'there are teams'}, and {tags.length === 0 ? <>tag people (<code>POST /v1/tags</code>)</> : 'there are tags'}.</p>
              ) : <NewRule owners={owners} tags={tags} onCreated={loaded.reload} />}
            </>
          );
        }}</Pending>
      </AdminOnly>
    </Page>
  );
}

function TagChoices(props: { legend: string; tags: Tag[]; chosen: Set<string>; onChange: (chosen: Set<string>) => void; hint: string }) {
  const id = props.legend.replace(/\W+/g, '-').toLowerCase();
  return (
    <fieldset aria-describedby={`${id}-hint`}>
      <legend>{props.legend}</legend>
      <p id={`${id}-hint`} class="hint">{props.hint}</p>
      {props.tags.map((t) => (
        <label key={t.tag_id} class="choice">
          <input type="checkbox" checked={props.chosen.has(t.tag_id)} onChange={(e) => {
            const next = new Set(props.chosen);
            if (e.currentTarget.checked) next.add(t.tag_id);
            else next.delete(t.tag_id);
            props.onChange(next);
          }} /> {tagText(t.key, t.value)}
        </label>
      ))}
    </fieldset>
  );
}

function NewRule(props: { owners: Schema<'Owner'>[]; tags: Tag[]; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [owner, setOwner] = useState(props.owners[0]!.owner_id);
  const [active, setActive] = useState(true);
  const [when, setWhen] = useState<Set<string>>(new Set());
  const [unless, setUnless] = useState<Set<string>>(new Set());
  const action = useAction();
  const pick = (ids: Set<string>) => props.tags.filter((t) => ids.has(t.tag_id));
  const submit = async (e: Event) => {
    e.preventDefault();
    const ok = await action.run(async () => {
      if (when.size === 0) throw new Error('Choose at least one tag under "Members are people tagged".');
      await post('/access-rules', { body: {
        name: name.trim(), description: description.trim(), admin_owner_id: owner, status: active ? 'ACTIVE' : 'PAUSED',
        ruleClauses: { when: clauseOf(pick(when)), ...(unless.size > 0 ? { unless: clauseOf(pick(unless)) } : {}) },
      } });
    });
    if (ok) {
      setName('');
      setDescription('');
      setWhen(new Set());
      setUnless(new Set());
      props.onCreated();
    }
  };
  return (
    <form onSubmit={submit}>
      <div class="field"><label for="rule-name">Name</label>
        <input id="rule-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} /></div>
      <div class="field"><label for="rule-description">Description <span class="required">(optional)</span></label>
        <input id="rule-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} /></div>
      <div class="field"><label for="rule-owner">Team that owns it</label>
        <select id="rule-owner" value={owner} onChange={(e) => setOwner(e.currentTarget.value)}>
          {props.owners.map((o) => <option key={o.owner_id} value={o.owner_id}>{o.name ?? o.owner_id}</option>)}
        </select></div>
      <TagChoices legend="Members are people tagged" hint="Any of the chosen tags." tags={props.tags} chosen={when} onChange={setWhen} />
      <TagChoices legend="Unless tagged (optional)" hint="People with any of these are left out." tags={props.tags} chosen={unless} onChange={setUnless} />
      <div class="field check">
        <input id="rule-active" type="checkbox" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
        <label for="rule-active">Active now (members are added and removed at once)</label>
      </div>
      <button type="submit" class="primary" disabled={action.busy}>Create access rule</button>
      <Problem message={action.error} />
    </form>
  );
}

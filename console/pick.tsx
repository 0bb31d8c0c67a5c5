// Typeahead pickers: a person or an item chosen by name (a text field with suggestions), giving the id
// the API wants; a filter or form never asks anyone to paste an id.
import { useEffect, useState } from 'preact/hooks';
import { get } from './api.ts';

export interface Choice {
  id: string;
  /** What the field shows and the suggestion reads: "Rowan Requester <rowan@example.com>". */
  label: string;
}

/** A person as a suggestion reads. */
const personChoice = (u: { user_id: string; full_name?: string; email: string }): Choice => ({ id: u.user_id, label: `${u.full_name ?? u.email} <${u.email}>` });

/** People whose name or email contains `term` (the API's `contains`; at most 20). */
export async function findPeople(term: string): Promise<Choice[]> {
  // A chosen suggestion reads "Rowan Requester <rowan@example.com>": look for the email in it.
  const needle = /<([^>]+)>$/.exec(term.trim())?.[1] ?? term.trim();
  const found = await get('/users', { query: { contains: needle, page_size: 20 } });
  return (found.results ?? []).map(personChoice);
}

/** Resources and groups whose name contains `term` (the API's name filters; at most 20 of each). */
export async function findItems(term: string): Promise<Choice[]> {
  // A chosen suggestion reads "Payroll (resource)": look for its name.
  const name = term.trim().replace(/ \((resource|group)\)$/, '');
  const [resources, groups] = await Promise.all([
    get('/resources', { query: { resource_name: name, page_size: 20 } }),
    get('/groups', { query: { group_name: name, page_size: 20 } }),
  ]);
  return [
    ...(resources.results ?? []).map((r) => ({ id: r.resource_id, label: `${r.name} (resource)` })),
    ...(groups.results ?? []).map((g) => ({ id: g.group_id, label: `${g.name} (group)` })),
  ];
}

/** A person's or item's label for an id already chosen (from the address), or the id when unknown. */
export async function labelOf(id: string): Promise<string> {
  const person = await get('/users/{user_id}', { path: { user_id: id } }).catch(() => undefined);
  if (person) return personChoice(person).label;
  const resource = await get('/resources/{resource_id}', { path: { resource_id: id } }).catch(() => undefined);
  if (resource) return `${resource.name} (resource)`;
  const group = await get('/groups/{group_id}', { path: { group_id: id } }).catch(() => undefined);
  if (group) return `${group.name} (group)`;
  return id;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A labelled text field suggesting choices as one types (a native datalist, so it works with the
 * keyboard and screen readers as any text field does). `onPick` gets the chosen id, '' when the field
 * is emptied, or undefined while the text matches no suggestion (a pasted id is taken as it is).
 */
export function Picker(props: { id: string; label: string; hint?: string; initialId?: string; find: (term: string) => Promise<Choice[]>; onPick: (id: string | undefined) => void }) {
  const [text, setText] = useState('');
  const [choices, setChoices] = useState<Choice[]>([]);
  // Until the person types (or the address's id is named), the field says nothing about the filter.
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (!props.initialId) return;
    labelOf(props.initialId).then((label) => {
      setChoices([{ id: props.initialId!, label }]);
      setText(label);
    }, () => setText(props.initialId!));
  }, [props.initialId]);
  useEffect(() => {
    if (!touched || text.trim().length < 2) return;
    let live = true;
    const timer = setTimeout(() => props.find(text).then((found) => live && setChoices(found), () => live && setChoices([])), 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, touched]);
  // The id the text names, once the suggestions it was chosen from have arrived.
  useEffect(() => {
    if (!touched) return;
    const trimmed = text.trim();
    if (trimmed === '') return props.onPick('');
    if (UUID.test(trimmed)) return props.onPick(trimmed);
    props.onPick(choices.find((c) => c.label === text)?.id);
  }, [text, choices, touched]);
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input id={props.id} type="text" list={`${props.id}-choices`} autocomplete="off" value={text} aria-describedby={props.hint ? `${props.id}-hint` : undefined}
        onInput={(e) => {
          setTouched(true);
          setText(e.currentTarget.value);
        }} />
      <datalist id={`${props.id}-choices`}>{choices.map((c) => <option key={c.id} value={c.label} />)}</datalist>
      {props.hint && <p class="hint" id={`${props.id}-hint`}>{props.hint}</p>}
    </div>
  );
}

// Request templates (admins): the questions a request asks beside the reason, which an item's request
// configurations choose among (docs/request-templates.md): list, add, change, delete.
import { useState } from 'preact/hooks';
import { all, del, post, put, type Me, type Schema } from '../api.ts';
import { AdminOnly, Link, Page, Pending, Problem, useAction, useConfirm, useLoad } from '../ui.tsx';

type Template = Schema<'RequestTemplate'>;
type Field = Schema<'RequestTemplateCustomField'>;

const TYPES: [Field['type'], string][] = [
  ['SHORT_TEXT', 'A line of text'],
  ['LONG_TEXT', 'Several lines of text'],
  ['BOOLEAN', 'Yes or no'],
  ['MULTI_CHOICE', 'One of a list'],
];

/** A field as the API takes it: options only for MULTI_CHOICE, no empty description. */
const toInput = (f: Field, options: string) => ({
  name: f.name.trim(), type: f.type, required: f.required,
  ...(f.description?.trim() && { description: f.description.trim() }),
  ...(f.type === 'MULTI_CHOICE' && { metadata: { multi_choice_data: { options: options.split('\n').map((o) => o.trim()).filter(Boolean) } } }),
});

function TemplateForm(props: { template?: Template; onSaved: () => void; onCancel?: () => void }) {
  const prefix = props.template ? `edit-${props.template.request_template_id}` : 'new-template';
  const [name, setName] = useState(props.template?.name ?? '');
  const [fields, setFields] = useState<Field[]>(props.template?.custom_fields ?? []);
  // Each MULTI_CHOICE field's options, one a line, as typed.
  const [options, setOptions] = useState<string[]>((props.template?.custom_fields ?? []).map((f) => (f.metadata?.multi_choice_data?.options ?? []).join('\n')));
  const action = useAction();
  const set = (i: number, change: Partial<Field>) => setFields(fields.map((f, j) => (j === i ? { ...f, ...change } : f)));
  const save = async (e: Event) => {
    e.preventDefault();
    const custom_fields = fields.map((f, i) => toInput(f, options[i] ?? ''));
    if (await action.run(() => props.template
      ? put('/request-templates', { body: { request_template_id: props.template.request_template_id, name: name.trim(), custom_fields } })
      : post('/request-templates', { body: { name: name.trim(), custom_fields } }))) {
      if (!props.template) {
        setName('');
        setFields([]);
        setOptions([]);
      }
      props.onSaved();
    }
  };
  return (
    <form onSubmit={save}>
      <div class="field"><label for={`${prefix}-name`}>Template name</label><input id={`${prefix}-name`} required value={name} onInput={(e) => setName(e.currentTarget.value)} /></div>
      {fields.map((f, i) => (
        <fieldset key={i}>
          <legend>Question {i + 1}</legend>
          <div class="field"><label for={`${prefix}-${i}-name`}>Question</label><input id={`${prefix}-${i}-name`} required value={f.name} onInput={(e) => set(i, { name: e.currentTarget.value })} /></div>
          <div class="field"><label for={`${prefix}-${i}-type`}>Kind of answer</label>
            <select id={`${prefix}-${i}-type`} value={f.type} onChange={(e) => set(i, { type: e.currentTarget.value as Field['type'] })}>
              {TYPES.map(([t, words]) => <option key={t} value={t}>{words}</option>)}
            </select>
          </div>
          {f.type === 'MULTI_CHOICE' && (
            <div class="field"><label for={`${prefix}-${i}-options`}>Choices, one a line</label>
              <textarea id={`${prefix}-${i}-options`} rows={3} required value={options[i] ?? ''} onInput={(e) => setOptions(fields.map((_, j) => (j === i ? e.currentTarget.value : options[j] ?? '')))} />
            </div>
          )}
          <div class="field"><label for={`${prefix}-${i}-help`}>Help text (optional)</label><input id={`${prefix}-${i}-help`} value={f.description ?? ''} onInput={(e) => set(i, { description: e.currentTarget.value })} /></div>
          <label class="choice"><input type="checkbox" checked={f.required} onChange={(e) => set(i, { required: e.currentTarget.checked })} /> Must be answered</label>
          <button type="button" onClick={() => {
            setFields(fields.filter((_, j) => j !== i));
            setOptions(options.filter((_, j) => j !== i));
          }}>Remove question {i + 1}</button>
        </fieldset>
      ))}
      <div class="actions">
        <button type="button" onClick={() => {
          setFields([...fields, { name: '', type: 'SHORT_TEXT', required: false }]);
          setOptions([...options, '']);
        }}>Add a question</button>
        <button type="submit" class="primary" disabled={action.busy}>{props.template ? 'Save the template' : 'Add the template'}</button>
        {props.onCancel && <button type="button" onClick={props.onCancel}>Cancel</button>}
      </div>
      <Problem message={action.error} />
    </form>
  );
}

export function RequestTemplates(props: { me: Me }) {
  const loaded = useLoad(() => all('/request-templates'), []);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const confirm = useConfirm();
  const remove = (t: Template) => confirm.ask({
    title: `Delete the request template ${t.name}?`,
    body: <p>Its {t.custom_fields.length} question{t.custom_fields.length === 1 ? '' : 's'} are no longer asked. Requests already made keep their answers. A template an item's settings still choose cannot be deleted: choose another there first.</p>,
    confirm: `Delete ${t.name}`,
    action: () => del('/request-templates/{request_template_id}', { path: { request_template_id: t.request_template_id } }),
    done: loaded.reload,
  });
  return (
    <AdminOnly me={props.me}>
      <Page title="Request templates">
        <p class="hint">The questions a request asks beside the reason (a ticket number, whether the requester is on call…). An item's settings choose which template its requests use. <Link href="/console/apps">Apps</Link></p>
        <Pending loaded={loaded}>{(templates) => (
          <>
            {templates.length === 0 ? <p>No request templates yet.</p> : templates.map((t) => (
              <section key={t.request_template_id} aria-labelledby={`template-${t.request_template_id}`}>
                <h2 id={`template-${t.request_template_id}`}>{t.name}</h2>
                {editing === t.request_template_id ? (
                  <TemplateForm template={t} onCancel={() => setEditing(undefined)} onSaved={() => { setEditing(undefined); loaded.reload(); }} />
                ) : (
                  <>
                    {t.custom_fields.length === 0 ? <p>No questions.</p> : (
                      <ol>{t.custom_fields.map((f) => (
                        <li key={f.name}>{f.name} — {TYPES.find(([type]) => type === f.type)?.[1].toLowerCase()}{f.required ? ', must be answered' : ''}{f.metadata?.multi_choice_data ? ` (${f.metadata.multi_choice_data.options.join(', ')})` : ''}</li>
                      ))}</ol>
                    )}
                    <div class="actions">
                      <button type="button" onClick={() => setEditing(t.request_template_id)}>Change {t.name}</button>
                      <button type="button" class="danger" onClick={() => remove(t)}>Delete {t.name}</button>
                    </div>
                  </>
                )}
              </section>
            ))}
            <h2>Add a request template</h2>
            <TemplateForm onSaved={loaded.reload} />
          </>
        )}</Pending>
        {confirm.dialog}
      </Page>
    </AdminOnly>
  );
}

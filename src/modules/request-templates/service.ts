// Request templates: create, change, delete (refused while an item's request settings name one), and
// the fields a request must answer for the templates its items' configurations name.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import type { CustomFieldInputType } from './schemas.ts';
import type { CustomField, RequestTemplate } from './store.ts';
import { toApiRequestTemplate } from './mappers.ts';

function requireTemplate(ctx: AppContext, id: string, path: string): RequestTemplate {
  const template = ctx.stores.requestTemplates.get(id);
  if (!template) throw notFound('request template', id, path);
  return template;
}

/**
 * The fields as stored: names once each (case-insensitively), options only on MULTI_CHOICE and
 * required there, each option once. Throws validation_failed naming `custom_fields.N.…`.
 */
function checkFields(input: CustomFieldInputType[]): CustomField[] {
  const names = new Set<string>();
  return input.map((field, i) => {
    const path = `custom_fields.${i}`;
    const key = field.name.toLowerCase();
    if (names.has(key)) throw invalidField(`${path}.name`, 'names a field a second time');
    names.add(key);
    const options = field.metadata?.multi_choice_data?.options;
    if (field.type === 'MULTI_CHOICE' && options === undefined) {
      throw invalidField(`${path}.metadata.multi_choice_data.options`, 'is required for a MULTI_CHOICE field: list the choices');
    }
    if (field.type !== 'MULTI_CHOICE' && options !== undefined) {
      throw invalidField(`${path}.metadata.multi_choice_data`, `is only for MULTI_CHOICE fields, not ${field.type}`);
    }
    if (options !== undefined && new Set(options).size !== options.length) {
      throw invalidField(`${path}.metadata.multi_choice_data.options`, 'must not list an option twice');
    }
    const description = field.description?.trim();
    return {
      name: field.name,
      ...(description && { description }),
      type: field.type,
      required: field.required,
      ...(options !== undefined && { metadata: { multi_choice_data: { options } } }),
    };
  });
}

const subEvent = (type: string, template: { id: string; name: string }, extra: Record<string, string> = {}): SubEvent => ({
  sub_event_type: type, request_template_id: template.id, request_template_name: template.name, ...extra,
});

/** Creates a template and records REQUEST_TEMPLATES_CREATED. Throws validation_failed naming the field. */
export function createRequestTemplate(ctx: AppContext, actor: Actor, input: { name: string; custom_fields: CustomFieldInputType[] }) {
  const { requestTemplates, events } = ctx.stores;
  const fields = checkFields(input.custom_fields);
  return ctx.db.transaction(() => {
    const id = requestTemplates.create(input.name, fields, ctx.clock.now());
    events.record(actor, 'REQUEST_TEMPLATES_CREATED', [subEvent('REQUEST_TEMPLATES_CREATED', { id, name: input.name }, { custom_fields: fields.map((f) => f.name).join(',') })]);
    return toApiRequestTemplate(requestTemplates.get(id)!);
  }).immediate();
}

/**
 * Changes the name and/or replaces the fields wholesale (as the vendor's update does); records
 * REQUEST_TEMPLATES_UPDATED. Requests already made keep the answers they were made with.
 */
export function updateRequestTemplate(ctx: AppContext, actor: Actor, id: string, input: { name?: string | undefined; custom_fields?: CustomFieldInputType[] | undefined }) {
  const { requestTemplates, events } = ctx.stores;
  const fields = input.custom_fields === undefined ? undefined : checkFields(input.custom_fields);
  return ctx.db.transaction(() => {
    const current = requireTemplate(ctx, id, 'request_template_id');
    const name = input.name ?? current.name;
    const next = fields ?? current.custom_fields;
    requestTemplates.update(id, name, next, ctx.clock.now());
    const changed = [input.name !== undefined && 'name', fields !== undefined && 'custom_fields'].filter(Boolean).join(',');
    events.record(actor, 'REQUEST_TEMPLATES_UPDATED', [subEvent('REQUEST_TEMPLATES_UPDATED', { id, name }, { updated_fields: changed })]);
    return toApiRequestTemplate(requestTemplates.get(id)!);
  }).immediate();
}

/** Deletes a template; conflict (request_template_id) while a resource, group or configuration template names it. */
export function deleteRequestTemplate(ctx: AppContext, actor: Actor, id: string): void {
  const { requestTemplates, events } = ctx.stores;
  ctx.db.transaction(() => {
    const template = requireTemplate(ctx, id, 'request_template_id');
    const users = requestTemplates.countUsing(id);
    if (users > 0) {
      const message = `is named by the request settings of ${users} resource${users === 1 ? '' : 's'}, group${users === 1 ? '' : 's'} or configuration template${users === 1 ? '' : 's'}`;
      throw new AppError('conflict', `request template ${id} ${message}; set their request_template_id elsewhere first`, [{ path: 'request_template_id', message }]);
    }
    requestTemplates.delete(id);
    events.record(actor, 'REQUEST_TEMPLATES_DELETED', [subEvent('REQUEST_TEMPLATES_DELETED', template)]);
  }).immediate();
}

/** The template with this id, or not_found naming `path`. */
export function getRequestTemplate(ctx: AppContext, id: string, path = 'request_template_id') {
  return toApiRequestTemplate(requireTemplate(ctx, id, path));
}

/** A field a request must answer, with the template that asks it and the items whose configuration names that template. */
export interface AskedField extends CustomField {
  request_template_id: string;
  /** The items' paths in the request body (`resources.0`), as the dry run shows them. */
  asked_for: string[];
  /** The same items' names, for messages people read. */
  itemNames: string[];
}

/**
 * The fields the templates named by a request's items ask, in the templates' order (items first to
 * last). A field two templates ask by the same name (case-insensitively) is asked once, required if
 * either requires it. An id naming no template (left behind, or set before it existed) asks nothing.
 */
export function fieldsAsked(ctx: AppContext, items: { path: string; name: string; requestTemplateId: string | null }[]): AskedField[] {
  const asked = new Map<string, AskedField>();
  for (const item of items) {
    if (item.requestTemplateId === null) continue;
    const template = ctx.stores.requestTemplates.get(item.requestTemplateId);
    for (const field of template?.custom_fields ?? []) {
      const key = field.name.toLowerCase();
      const seen = asked.get(key);
      if (seen) {
        seen.required ||= field.required;
        if (!seen.asked_for.includes(item.path)) {
          seen.asked_for.push(item.path);
          seen.itemNames.push(item.name);
        }
      } else asked.set(key, { ...field, request_template_id: template!.id, asked_for: [item.path], itemNames: [item.name] });
    }
  }
  return [...asked.values()];
}


// The request templates area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { RequestTemplate } from './store.ts';
import type { RequestTemplate as ApiRequestTemplate } from './responses.ts';

/** The vendor's RequestTemplate. */
export function toApiRequestTemplate(template: RequestTemplate): ApiRequestTemplate {
  return { request_template_id: template.id, name: template.name, custom_fields: template.custom_fields };
}

/** A field asked (service.ts's AskedField), as the dry run answers it: without the items' names, which are for messages. */
export const toApiAskedField = <Field extends { itemNames: string[] }>({ itemNames: _names, ...field }: Field): Omit<Field, 'itemNames'> => field;

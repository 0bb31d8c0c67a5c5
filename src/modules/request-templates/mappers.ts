// The request templates area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { RequestTemplate } from './store.ts';
import type { RequestTemplate as ApiRequestTemplate } from './responses.ts';
import type { AskedField } from './service.ts';

/** The vendor's RequestTemplate. */
export function toApiRequestTemplate(template: RequestTemplate): ApiRequestTemplate {
  return { request_template_id: template.id, name: template.name, custom_fields: template.custom_fields };
}

/** A field asked, as the dry run answers it. */
export const toApiAskedField = ({ itemNames: _names, ...field }: AskedField) => field;

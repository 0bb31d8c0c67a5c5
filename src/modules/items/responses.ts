// Response shapes resources and groups share as items of the catalogue (Valibot): parts of both areas' answers in the API document.
// Valibot schemas; wire facts (field names, types, formats, enums) agree with the reference, and a field Gatehouse always sends is required. See docs/openapi.md.
import * as v from 'valibot';
import { component, uuid, dateTime } from '../../openapi/responses.ts';

export const SyncTask = component('SyncTask', v.object({
  id: uuid,
  completed_at: dateTime,
}));
export type SyncTask = v.InferOutput<typeof SyncTask>;

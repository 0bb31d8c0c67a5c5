// The apps area's response shapes (Valibot): apps and their validations, the types its mappers return and its answers in the API document.
// Valibot schemas; wire facts (field names, types, formats, enums) agree with the reference, and a field Gatehouse always sends is required. See docs/openapi.md.
import * as v from 'valibot';
import { component, uuid, dateTime, described } from '../../openapi/responses.ts';
import { AppTypeEnum, AppValidationSeverityEnum, AppValidationStatusEnum } from '../../openapi/enums.ts';

export const AppValidation = component('AppValidation', v.object({
  key: v.string(),
  name: v.unknown(),
  usage_reason: v.optional(v.string()),
  details: v.optional(v.string()),
  severity: AppValidationSeverityEnum,
  status: AppValidationStatusEnum,
  updated_at: dateTime,
}));
export type AppValidation = v.InferOutput<typeof AppValidation>;

export const App = component('App', described(v.object({
  app_id: uuid,
  name: v.string(),
  description: v.string(),
  admin_owner_id: uuid,
  app_type: AppTypeEnum,
  validations: v.optional(v.array(AppValidation)),
}), 'A system that resources and groups live in.'));
export type App = v.InferOutput<typeof App>;

export const AppsList = component('AppsList', v.object({
  apps: v.array(App),
}));

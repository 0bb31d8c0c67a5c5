// Checks what an on-call stand-in answers against the provider's public API document in
// the reference directory (test/helpers/reference.ts: PagerDuty's OpenAPI 3.0, Opsgenie's Swagger 2.0) with Ajv, so a stand-in cannot
// drift from the real service. Without the reference directory the check is skipped (answers pass).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

import { REFERENCE_DIR as REFERENCE } from './reference.ts';

/** An answer's body checked against the document: null when it fits (or no document is present), else the problems in words. */
export type AnswerCheck = (template: string, status: number, body: unknown) => string | null;

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

function load(file: string, id: string, schemaAt: (doc: Record<string, any>, template: string, status: number) => string | null): AnswerCheck {
  const path = join(REFERENCE, file);
  if (!existsSync(path)) return () => null;
  let doc: Record<string, any> | undefined;
  let ajv: Ajv | undefined;
  const compiled = new Map<string, ValidateFunction | null>();
  return (template, status, body) => {
    if (!doc) {
      doc = JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
      // The documents describe, they are not meta-schema-clean (OpenAPI's `nullable`, `example`, formats such as `tzinfo`).
      ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true, logger: false });
      (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
      ajv.addSchema(doc, id);
    }
    const key = `${template} ${status}`;
    if (!compiled.has(key)) {
      const at = schemaAt(doc, template, status);
      compiled.set(key, at === null ? null : ajv!.compile({ $ref: `${id}#/${at}` }));
    }
    const validate = compiled.get(key);
    if (validate === null) return `${file} documents no ${status} answer for GET ${template}`;
    if (validate!(body)) return null;
    return `${template} ${status}: ${ajv!.errorsText(validate!.errors)}`;
  };
}

/** PagerDuty REST API v2 (OpenAPI 3.0): a response may be a $ref to components/responses. */
export const checkPagerDutyAnswer: AnswerCheck = load('pagerduty-rest-openapiv3.json', 'pagerduty', (doc, template, status) => {
  let response = doc.paths?.[template]?.get?.responses?.[String(status)];
  let base = pointer('paths', template, 'get', 'responses', String(status));
  if (response?.$ref) {
    base = String(response.$ref).slice(2);
    response = base.split('/').reduce((node: any, part: string) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
  }
  if (!response?.content?.['application/json']?.schema) return null;
  return `${base}/content/application~1json/schema`;
});

/** Opsgenie (Swagger 2.0): a response may be a $ref to #/responses. */
export const checkOpsgenieAnswer: AnswerCheck = load('opsgenie-swagger.json', 'opsgenie', (doc, template, status) => {
  let response = doc.paths?.[template]?.get?.responses?.[String(status)];
  let base = pointer('paths', template, 'get', 'responses', String(status));
  if (response?.$ref) {
    base = String(response.$ref).slice(2);
    response = base.split('/').reduce((node: any, part: string) => node?.[part], doc);
  }
  if (!response?.schema) return null;
  return `${base}/schema`;
});

/** Whether the reference documents are here (the checks above are then real). */
export const referencePresent = (): boolean => existsSync(join(REFERENCE, 'pagerduty-rest-openapiv3.json'));

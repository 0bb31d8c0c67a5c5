// Builds Gatehouse's OpenAPI 3.1 document from the modules' operation groups: request schemas from
// their Valibot schemas, responses from the named components, errors from the one error shape.
import { ERROR_STATUS, type ErrorCode } from '../http/errors.ts';
import { leastRole } from '../http/policy.ts';
import type { Role } from '../http/route.ts';
import type { Protocol } from '../http/protocol.ts';
import { V1 } from '../http/v1.ts';
import { MAX_JSON_DEPTH } from '../lib/json-depth.ts';
import { VERSION } from '../version.ts';
import { errorCodesFor, pathParameterNames, splitKey, type OperationDoc, type OperationGroup } from './operations.ts';
import { componentName, type JsonSchema } from './schema.ts';
import * as v from 'valibot';
import { component, described, responseSchema } from './responses.ts';
import { bodySchema, queryParameters } from './valibot.ts';

type Json = Record<string, unknown>;

/** The one error shape every failure has. */
export const ErrorBody = component('Error', described(v.strictObject({
  code: described(v.picklist(Object.keys(ERROR_STATUS) as ErrorCode[]), 'What went wrong, from a closed set; the HTTP status follows from it.'),
  message: described(v.pipe(v.string(), v.nonEmpty()), 'What went wrong, in words, naming the field where one is at fault.'),
  details: described(v.array(v.strictObject({
    path: described(v.string(), 'The field, dotted (`owners.2.name`), or `body`/`query` for the whole input.'),
    message: described(v.string(), 'What is wrong with it.'),
  })), 'One entry per bad input field; empty when no field is at fault.'),
  request_id: described(v.pipe(v.string(), v.nonEmpty()), 'Also sent as the X-Request-Id header; quote it when reporting a problem.'),
}), 'Every failure has this shape; `code` is the contract, `message` is for people.'));

const UUID_PARAMETER: JsonSchema = { type: 'string', format: 'uuid' };

/** Writes named components as $refs and collects their definitions into `components`. */
class ComponentWriter {
  readonly components: Record<string, Json> = {};
  readonly #owners = new Map<string, object>();

  write(schema: unknown, root = false): unknown {
    if (Array.isArray(schema)) return schema.map((item) => this.write(item));
    if (typeof schema !== 'object' || schema === null) return schema;
    const name = root ? undefined : componentName(schema);
    if (name !== undefined) {
      const owner = this.#owners.get(name);
      if (owner !== undefined && owner !== schema) throw new Error(`two different schemas are both named component ${name}`);
      if (owner === undefined) {
        this.#owners.set(name, schema);
        this.components[name] = this.write(schema, true) as Json;
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, this.write(value)]));
  }
}

/** Each error status once, in components.responses, listing every code that answers with it. */
function errorResponseComponents(): Record<string, Json> {
  const byStatus = new Map<number, string[]>();
  for (const [code, status] of Object.entries(ERROR_STATUS)) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus.entries()].map(([status, codes]) => [
      `Error${status}`,
      { description: `Failed: ${codes.map((code) => `\`${code}\``).join(' or ')}.`, content: { 'application/json': { schema: responseSchema(ErrorBody) } } },
    ]),
  );
}

function errorResponses(codes: ErrorCode[]): Record<string, Json> {
  const statuses = [...new Set(codes.map((code) => ERROR_STATUS[code]))].sort((a, b) => a - b);
  return Object.fromEntries(statuses.map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]));
}

function operationObject(tag: string, key: string, doc: OperationDoc & { role?: Role }, protocol: Protocol): Json {
  const { method, path } = splitKey(key);
  const names = pathParameterNames(path);
  for (const name of Object.keys(doc.pathParams ?? {})) {
    if (!names.includes(name)) throw new Error(`${key}: pathParams names ${name}, which the path does not have`);
  }
  const parameters: Json[] = names.map((name) => {
    const custom = doc.pathParams?.[name];
    return { name, in: 'path', required: true, description: custom?.description ?? `The ${name.replace(/_id$/, '').replaceAll('_', ' ')}'s id.`, schema: custom ? responseSchema(custom.schema) : UUID_PARAMETER };
  });
  if (doc.query) parameters.push(...(queryParameters(doc.query) as unknown as Json[]));

  const op: Json = {
    tags: [tag],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    operationId: operationId(method, path),
    ...(parameters.length > 0 ? { parameters } : {}),
  };
  if (doc.body) {
    op.requestBody = {
      required: doc.body.type !== 'optional',
      // A protocol with a media type of its own (SCIM's) takes it and plain JSON alike.
      content: Object.fromEntries([...new Set(['application/json', protocol.mediaType])].map((type) => [type, { schema: bodySchema(doc.body!) }])),
    };
  }
  const mediaType = doc.responseMediaType ?? protocol.mediaType;
  // A protocol without a security scheme (the console's cookie, Slack's signature, the service's pages) names none.
  const isPublic = doc.public ?? protocol.securityScheme === null;
  const responses: Record<string, Json> = {};
  for (const [status, declared] of Object.entries(doc.responses)) {
    const schema = declared && responseSchema(declared);
    const name = schema ? componentName(schema) : undefined;
    responses[status] = {
      description: name ? `Success: ${name}` : 'Success',
      ...(schema ? { content: { [mediaType]: { schema } } } : {}),
    };
  }
  const errors = errorResponses(errorCodesFor(method, path, { ...doc, ...(isPublic && { public: true }) }));
  if (protocol.errorSchema) {
    for (const status of Object.keys(errors)) {
      errors[status] = { description: 'Failed', content: { [protocol.mediaType]: { schema: responseSchema(protocol.errorSchema) } } };
    }
  }
  Object.assign(responses, errors);
  op.responses = responses;
  if (isPublic) op.security = [];
  else if (!protocol.roles) op.security = [{ [protocol.securityScheme!]: [] }];
  else if (doc.role !== undefined) op['x-gatehouse-role'] = leastRole(doc.role);
  else throw new Error(`${key}: a route in ${protocol.prefix} needs a declared role`);
  if (doc.extension) op['x-gatehouse-extension'] = true;
  if (doc.deprecated) op.deprecated = true;
  return op;
}

/** A stable id from method and path: GET /v1/owners/{owner_id}/users → get_owners_owner_id_users. */
function operationId(method: string, path: string): string {
  const words = path.replace(/^\/v1\//, '/').split('/').filter(Boolean).map((part) => part.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_'));
  return [method.toLowerCase(), ...words].join('_');
}

/**
 * The whole document. Throws when two groups document the same operation, a pathParams entry
 * names no placeholder, or two different schemas claim one component name.
 */
export function buildOpenApiDocument(groups: readonly OperationGroup[]): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const group of groups) {
    for (const [key, doc] of Object.entries(group.operations)) {
      if (!doc) continue;
      const { method, path } = splitKey(key);
      const item = (paths[path] ??= {});
      const lower = method.toLowerCase();
      if (item[lower]) throw new Error(`${key} is documented twice`);
      item[lower] = operationObject(group.tag, key, doc, doc.protocol ?? group.protocol ?? V1);
    }
  }
  const writer = new ComponentWriter();
  const written = writer.write(paths) as Json;
  const responses = writer.write(errorResponseComponents()) as Json;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse',
      version: VERSION,
      summary: 'Self-hosted access management with an API wire-compatible with Opal Security\'s public v1 API.',
      description:
        'Every operation under /v1 needs `Authorization: Bearer <token>`; READ_ONLY tokens may only read. ' +
        '`x-gatehouse-role` names the least organization role (MEMBER or ADMIN) whose FULL_ACCESS token may call an ' +
        'operation; a member may still be refused what is not theirs (403). ' +
        'Operations marked `x-gatehouse-extension` are Gatehouse\'s own; the rest follow the reference API. ' +
        'Every failure answers the `Error` shape. Lists page by cursor: pass `next` back as `cursor`. ' +
        `Extension: a JSON body may nest objects and lists at most ${MAX_JSON_DEPTH} deep (\`x-gatehouse-max-json-depth\`; ` +
        'the top-level object is depth 1); a deeper one answers 400 `validation_failed` naming where it goes too deep.',
      'x-gatehouse-max-json-depth': MAX_JSON_DEPTH,
    },
    tags: [...new Set(groups.map((group) => group.tag))].map((name) => ({ name })),
    security: [{ bearerAuth: [] }],
    paths: written,
    components: {
      schemas: writer.components,
      responses,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token made with `gatehouse token` or POST /v1/tokens.' },
        scimBearer: { type: 'http', scheme: 'bearer', description: 'A SCIM token made with `gatehouse token create --scim`: it works on /scim/v2 only (docs/scim.md).' },
      },
    },
  };
}

// Response shapes are Valibot schemas; the API document's response schemas are converted from them.
// What the conversion must keep: named components as $refs, nullability beside the format, required
// lists, descriptions and extension marks, and refusals of what a document cannot name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { buildOpenApiDocument } from '../../src/openapi/document.ts';
import { defineOperations } from '../../src/openapi/operations.ts';
import { component, cursor, described, extension, responseSchema, uuid } from '../../src/openapi/responses.ts';

type Json = Record<string, any>;

const Gadget = component('TestGadget', described(v.object({ gadget_id: uuid, size: v.optional(v.picklist(['S', 'L'])) }), 'A gadget.'));
const Widget = component('TestWidget', v.object({
  widget_id: uuid,
  owner_id: v.optional(v.nullable(uuid)),
  gadget: Gadget,
  spare: v.optional(v.nullable(Gadget)),
  main_gadget: described(Gadget, 'The one it runs on.'),
  colour: extension(v.string(), 'Gatehouse adds it.'),
}));
const WidgetPage = v.object({ results: v.array(Widget), next: cursor });

function documentOf(responses: Record<string, v.GenericSchema>): Json {
  const operations = Object.fromEntries(Object.entries(responses).map(([path, schema]) => [`GET /v1/${path}`, { summary: 'Read', role: 'read', responses: { 200: schema } }]));
  const doc = buildOpenApiDocument([defineOperations('test', operations)]) as Json;
  return doc;
}

describe('response schemas in the API document', () => {
  it('writes a named schema once, as a component, and a $ref wherever it is used', () => {
    const doc = documentOf({ widgets: WidgetPage, 'widgets/one': Widget });
    const schemas = doc.components.schemas as Json;
    assert.deepEqual(Object.keys(schemas).sort(), ['Error', 'TestGadget', 'TestWidget']);
    assert.deepEqual(doc.paths['/v1/widgets/one'].get.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/TestWidget' });
    assert.equal(doc.paths['/v1/widgets/one'].get.responses['200'].description, 'Success: TestWidget');
    const page = doc.paths['/v1/widgets'].get.responses['200'].content['application/json'].schema;
    assert.deepEqual(page, {
      type: 'object',
      properties: { results: { type: 'array', items: { $ref: '#/components/schemas/TestWidget' } }, next: { type: ['string', 'null'] } },
      required: ['results'],
    });
  });

  it('keeps formats, enumerations, nullability, required fields, descriptions and extension marks', () => {
    const schemas = documentOf({ widgets: Widget }).components.schemas as Json;
    assert.deepEqual(schemas.TestGadget, {
      type: 'object',
      properties: { gadget_id: { type: 'string', format: 'uuid' }, size: { enum: ['S', 'L'], type: 'string' } },
      required: ['gadget_id'],
      description: 'A gadget.',
    });
    assert.deepEqual(schemas.TestWidget, {
      type: 'object',
      properties: {
        widget_id: { type: 'string', format: 'uuid' },
        owner_id: { type: ['string', 'null'], format: 'uuid' },
        gadget: { $ref: '#/components/schemas/TestGadget' },
        spare: { anyOf: [{ $ref: '#/components/schemas/TestGadget' }, { type: 'null' }] },
        main_gadget: { allOf: [{ $ref: '#/components/schemas/TestGadget' }], description: 'The one it runs on.' },
        colour: { type: 'string', description: 'Gatehouse adds it.', 'x-gatehouse-extension': true },
      },
      required: ['widget_id', 'gadget', 'main_gadget', 'colour'],
    });
  });

  it('gives the same JSON object for a schema each time, so the document is built once per schema', () => {
    assert.equal(responseSchema(Widget), responseSchema(Widget));
  });

  it('refuses two different schemas under one component name', () => {
    const Twin = component('TestGadget', v.object({ other: v.string() }));
    assert.throws(() => documentOf({ a: Gadget, b: Twin }), /two different schemas are both named component TestGadget/);
  });

  it('refuses a recursive schema, which the document could not name', () => {
    type Node = { children: Node[] };
    const Tree: v.GenericSchema<Node> = v.object({ children: v.array(v.lazy(() => Tree)) });
    assert.throws(() => responseSchema(Tree), /cannot be recursive/);
  });
});

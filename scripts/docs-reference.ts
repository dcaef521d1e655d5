/**
 * The generated reference pages, so they cannot drift from what the code serves and reads:
 *
 *   pnpm exec tsx scripts/docs-reference.ts     rewrite docs/reference/api.md and configuration.md
 *
 * api.md renders the OpenAPI document the gateway serves (GET /v1/openapi.json); configuration.md
 * renders each service's zod env schema: its variables, the defaults the schema itself gives and
 * the one-line doc each field carries (`.describe('…')`). tests/src/docs-reference.test.ts
 * regenerates both in-process and fails when a committed page differs.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mapWorkerEnvSchema } from '@wcs/crawl-worker';
import { SERVICE_ENV_SCHEMAS } from '../tests/src/service-env-schemas';
import { openApiDocument } from './client-types';

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
};
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type Operation = {
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>;
};
type Document = {
  info?: { title?: string; version?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

const ROOT = join(__dirname, '..');
export const API_REFERENCE = 'docs/reference/api.md';
export const CONFIG_REFERENCE = 'docs/reference/configuration.md';

/** Table cells are one line; a pipe would end the cell. */
/** The page as `pnpm format` (Biome) leaves it, so the lint check and the drift test agree. */
function formatted(file: string, markdown: string): string {
  return execFileSync(join(ROOT, 'node_modules/.bin/biome'), ['format', `--stdin-file-path=${file}`], {
    cwd: ROOT,
    input: markdown,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'ignore'],
  });
}

const cell = (text: string): string => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
const code = (text: string): string => `\`${text}\``;
const SAFE_INTEGER = 9007199254740991;

function typeOf(schema: Schema): string {
  if (schema.$ref) return schema.$ref.split('/').pop() ?? schema.$ref;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return [...new Set(union.map(typeOf))].join(' | ');
  if (schema.allOf) return schema.allOf.map(typeOf).join(' & ');
  if (schema.type === 'array') {
    const item = schema.items ? typeOf(schema.items) : 'unknown';
    return item.includes(' | ') ? `(${item})[]` : `${item}[]`;
  }
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return schema.type ?? 'any';
}

function constraints(schema: Schema): string[] {
  const out: string[] = [];
  if (schema.minimum !== undefined && schema.minimum > -SAFE_INTEGER) out.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined && schema.maximum < SAFE_INTEGER) out.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined && schema.minLength > 0) out.push(`length ≥ ${schema.minLength}`);
  if (schema.maxLength !== undefined) out.push(`length ≤ ${schema.maxLength}`);
  if (schema.minItems !== undefined && schema.minItems > 0) out.push(`items ≥ ${schema.minItems}`);
  if (schema.maxItems !== undefined) out.push(`items ≤ ${schema.maxItems}`);
  if (schema.format) out.push(`format ${schema.format}`);
  return out;
}

/** An object's fields as rows, nested objects (and arrays of objects) flattened to dotted names. */
function fieldRows(schema: Schema, prefix: string, depth: number): string[] {
  const rows: string[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    const notes = [field.description ?? '', ...constraints(field)].filter((s) => s !== '').join('; ');
    const def = field.default === undefined ? '' : code(JSON.stringify(field.default));
    rows.push(
      `| ${code(path)} | ${cell(typeOf(field))} | ${required.has(name) ? 'yes' : ''} | ${cell(def)} | ${cell(notes)} |`,
    );
    if (depth < 3) {
      const inner = field.type === 'array' && field.items ? field.items : field;
      if (inner.properties) {
        rows.push(...fieldRows(inner, `${path}${inner === field ? '' : '[]'}.`, depth + 1));
      }
    }
  }
  return rows;
}

function fieldsTable(schema: Schema): string[] {
  const rows = fieldRows(schema, '', 1);
  if (rows.length === 0) return [`Body: ${cell(typeOf(schema))}.`];
  return ['| field | type | required | default | notes |', '| --- | --- | --- | --- | --- |', ...rows];
}

/** A response body in one line: its top-level fields, `?` for optional ones. */
function bodySummary(schema: Schema | undefined): string {
  if (!schema) return '';
  if (!schema.properties) return typeOf(schema);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties)
    .map(([name, field]) => `${name}${required.has(name) ? '' : '?'}: ${typeOf(field)}`)
    .join(', ');
}

export function generateApiReference(doc: Document = openApiDocument() as unknown as Document): string {
  const out: string[] = [
    '# API reference',
    '',
    '<!-- Generated by scripts/docs-reference.ts from the OpenAPI document (GET /v1/openapi.json). Do not edit: run `pnpm exec tsx scripts/docs-reference.ts`. -->',
    '',
    'Every operation the gateway serves, as its OpenAPI document describes it. How they behave (page',
    'options, formats, credits, errors, webhooks) is explained in [the API guide](../api.md). Requests',
    'carry `Authorization: Bearer <API_KEY>`; bodies are JSON objects with exactly the fields listed',
    '(an unknown field is a 400 naming it). Errors have the shape of [`Error`](#error).',
    '',
  ];
  const operations: Array<[string, string, Operation]> = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) operations.push([method.toUpperCase(), path, op]);
  }
  out.push('| operation | summary |', '| --- | --- |');
  for (const [method, path, op] of operations) {
    out.push(`| ${code(`${method} ${path}`)} | ${cell(op.summary ?? '')} |`);
  }
  for (const [method, path, op] of operations) {
    out.push('', `## ${code(`${method} ${path}`)}`, '');
    if (op.summary) out.push(`${op.summary}.`.replace(/\.\.$/, '.'), '');
    if (op.description) out.push(op.description, '');
    if (op.parameters?.length) {
      out.push('| parameter | in | type | required | notes |', '| --- | --- | --- | --- | --- |');
      for (const p of op.parameters) {
        const schema = p.schema ?? {};
        const notes = [p.description ?? schema.description ?? '', ...constraints(schema)]
          .filter((s) => s !== '')
          .join('; ');
        const def = schema.default === undefined ? '' : ` (default ${code(JSON.stringify(schema.default))})`;
        out.push(
          `| ${code(p.name)} | ${p.in} | ${cell(typeOf(schema))} | ${p.required ? 'yes' : ''} | ${cell(notes + def)} |`,
        );
      }
      out.push('');
    }
    for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
      out.push(`Request body (${type}):`, '', ...fieldsTable(media.schema), '');
    }
    out.push('| status | meaning | body |', '| --- | --- | --- |');
    for (const [status, response] of Object.entries(op.responses)) {
      const media = Object.entries(response.content ?? {})
        .map(([type, m]) => (type === 'application/json' ? bodySummary(m.schema) : type))
        .join('; ');
      out.push(`| ${status} | ${cell(response.description ?? '')} | ${cell(media)} |`);
    }
    // The success bodies field by field (errors all share the Error shape below).
    for (const [status, response] of Object.entries(op.responses)) {
      const schema = response.content?.['application/json']?.schema;
      if (status.startsWith('2') && schema?.properties) {
        out.push('', `Response ${status} (application/json):`, '', ...fieldsTable(schema));
      }
    }
  }
  const components = Object.entries(doc.components?.schemas ?? {});
  if (components.length > 0) out.push('', '## Shared schemas');
  for (const [name, schema] of components) {
    out.push('', `### ${name}`, '');
    if (schema.description) out.push(schema.description, '');
    out.push(...fieldsTable(schema));
  }
  return formatted(API_REFERENCE, `${out.join('\n')}\n`);
}

/** `description` is what zod's `.describe()` set on the field: its one-line doc. */
type EnvField = { description?: string; safeParse(value: unknown): { success: boolean; data?: unknown } };
type EnvSchema = { shape: Record<string, EnvField> };

/** The default the schema gives a variable left unset, as the page shows it. */
function envDefault(field: EnvField): string {
  const parsed = field.safeParse(undefined);
  if (!parsed.success) return 'required';
  const value = parsed.data;
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return 'unset';
  if (typeof value === 'string') return value === '' ? 'empty' : code(value);
  return code(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

const ENV_SERVICES: Array<[string, EnvSchema]> = [
  ...Object.entries(SERVICE_ENV_SCHEMAS),
  ['crawl-worker: map jobs', mapWorkerEnvSchema],
];

/**
 * Every variable a service reads -> its one-line doc, the `.describe('…')` on its schema field.
 * Throws naming the variables without one (so a new setting cannot reach the page undocumented)
 * and those whose services describe them differently (the page gives one line per variable).
 */
export function envDocs(services: ReadonlyArray<[string, EnvSchema]> = ENV_SERVICES): Map<string, string> {
  const docs = new Map<string, string>();
  const undocumented = new Set<string>();
  const conflicting = new Set<string>();
  for (const [, schema] of services) {
    for (const [name, field] of Object.entries(schema.shape)) {
      const doc = field.description?.trim();
      if (!doc) undocumented.add(name);
      else if (docs.has(name) && docs.get(name) !== doc) conflicting.add(name);
      else docs.set(name, doc);
    }
  }
  const problems = [
    undocumented.size > 0 &&
      `no .describe('…') on the env schema field of ${[...undocumented].join(', ')} (packages/config or the service's env.ts)`,
    conflicting.size > 0 && `two services describe ${[...conflicting].join(', ')} differently`,
  ].filter((p): p is string => typeof p === 'string');
  if (problems.length > 0) throw new Error(problems.join('; '));
  return docs;
}

export function generateConfigReference(): string {
  const docs = envDocs();
  const services = ENV_SERVICES;
  const out: string[] = [
    '# Configuration reference',
    '',
    '<!-- Generated by scripts/docs-reference.ts from the services’ zod env schemas (each field’s `.describe()`). Do not edit: run `pnpm exec tsx scripts/docs-reference.ts`. -->',
    '',
    'Each service parses only the variables it reads, once at start; an invalid value stops it with a',
    'message naming the variable. Defaults are the ones the schema gives an unset variable. How the',
    'stores are found and what the logs look like: [configuration](../configuration.md).',
    '',
    '| service | variables |',
    '| --- | --- |',
  ];
  const anchor = (service: string) => service.replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');
  for (const [service, schema] of services) {
    out.push(`| [${service}](#${anchor(service)}) | ${Object.keys(schema.shape).length} |`);
  }
  for (const [service, schema] of services) {
    out.push('', `## ${service}`, '', '| variable | default | meaning |', '| --- | --- | --- |');
    for (const [name, field] of Object.entries(schema.shape)) {
      out.push(`| ${code(name)} | ${cell(envDefault(field))} | ${cell(docs.get(name) ?? '')} |`);
    }
  }
  return formatted(CONFIG_REFERENCE, `${out.join('\n')}\n`);
}

if (require.main === module) {
  writeFileSync(join(ROOT, API_REFERENCE), generateApiReference());
  writeFileSync(join(ROOT, CONFIG_REFERENCE), generateConfigReference());
  console.log(`wrote ${API_REFERENCE} and ${CONFIG_REFERENCE}`);
}

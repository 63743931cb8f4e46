import { roleName } from '@argentum/contracts';
import { HTTP_METHODS, type HttpMethod, type JsonSchema, type OpenApiDocument } from '../api/types';

export interface OperationEntry {
  key: string;
  method: HttpMethod;
  path: string;
  summary: string;
  description: string | undefined;
  group: string;
  /** 'public', or who may call it. */
  access: string;
  isPublic: boolean;
  requestSchema: JsonSchema | undefined;
  /** The schema of the success answer (200). */
  responseSchema: JsonSchema | undefined;
}

export interface PropertyRow {
  name: string;
  depth: number;
  type: string;
  required: boolean;
  notes: string[];
}

function access(document: OpenApiDocument, operation: { security?: unknown[]; 'x-minimum-role'?: number }) {
  const minimumRole = operation['x-minimum-role'];
  if (typeof minimumRole === 'number') {
    return { access: `${roleName(minimumRole)} (role ≥ ${minimumRole})`, isPublic: false };
  }
  const security = operation.security ?? document.security ?? [];
  return security.length === 0
    ? { access: 'public', isPublic: true }
    : { access: 'Any signed-in user', isPublic: false };
}

export function listOperations(document: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const content = operation.requestBody?.content ?? {};
      const answer = operation.responses?.['200']?.content ?? {};
      entries.push({
        key: `${method} ${path}`,
        method,
        path,
        summary: operation.summary ?? '',
        description: operation.description,
        group: operation.tags?.[0] ?? 'Operations',
        ...access(document, operation),
        requestSchema: (content['application/json'] ?? Object.values(content)[0])?.schema,
        responseSchema: (answer['application/json'] ?? Object.values(answer)[0])?.schema,
      });
    }
  }
  return entries;
}

function resolve(schema: JsonSchema, document: OpenApiDocument, seen: ReadonlySet<string>): JsonSchema {
  const ref = schema.$ref;
  if (!ref?.startsWith('#/components/schemas/') || seen.has(ref)) return schema;
  const target = document.components?.schemas?.[ref.slice('#/components/schemas/'.length)];
  return target ? resolve(target, document, new Set([...seen, ref])) : schema;
}

function formatValue(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
}

function typeLabel(schema: JsonSchema, document: OpenApiDocument): string {
  const resolved = resolve(schema, document, new Set());
  if (resolved.const !== undefined) return formatValue(resolved.const);
  if (resolved.enum) return 'enum';
  const variants = resolved.anyOf ?? resolved.oneOf;
  if (variants) return variants.map((variant) => typeLabel(variant, document)).join(' | ');
  if (resolved.allOf) return resolved.allOf.map((part) => typeLabel(part, document)).join(' & ');
  const types = Array.isArray(resolved.type) ? resolved.type : resolved.type ? [resolved.type] : [];
  if (types.length === 0)
    return resolved.properties ? 'object' : resolved.$ref ? (resolved.$ref.split('/').pop() ?? 'any') : 'any';
  return types
    .map((type) => {
      if (type === 'array') return `${resolved.items ? typeLabel(resolved.items, document) : 'any'}[]`;
      return resolved.format ? `${type} (${resolved.format})` : type;
    })
    .join(' | ');
}

function notesOf(schema: JsonSchema): string[] {
  const notes: string[] = [];
  if (schema.description) notes.push(schema.description);
  if (schema.enum) notes.push(`one of ${schema.enum.map(formatValue).join(', ')}`);
  if (schema.minLength !== undefined) notes.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) notes.push(`max length ${schema.maxLength}`);
  if (schema.minimum !== undefined) notes.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) notes.push(`≤ ${schema.maximum}`);
  if (schema.minItems !== undefined)
    notes.push(`at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
  if (schema.maxItems !== undefined)
    notes.push(`at most ${schema.maxItems} item${schema.maxItems === 1 ? '' : 's'}`);
  if (schema.pattern) notes.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) notes.push(`default ${formatValue(schema.default)}`);
  return notes;
}

const MAX_DEPTH = 6;

/** Flattens an object schema into rows (nested properties indented, array items as name[]). */
export function propertyRows(schema: JsonSchema, document: OpenApiDocument): PropertyRow[] {
  const rows: PropertyRow[] = [];
  const visit = (objectSchema: JsonSchema, prefix: string, depth: number) => {
    const resolved = resolve(objectSchema, document, new Set());
    const required = new Set(resolved.required ?? []);
    for (const [name, property] of Object.entries(resolved.properties ?? {})) {
      const target = resolve(property, document, new Set());
      rows.push({
        name: `${prefix}${name}`,
        depth,
        type: typeLabel(target, document),
        required: required.has(name),
        notes: notesOf(target),
      });
      if (depth >= MAX_DEPTH) continue;
      if (target.properties) visit(target, `${prefix}${name}.`, depth + 1);
      else if (target.items && resolve(target.items, document, new Set()).properties) {
        visit(target.items, `${prefix}${name}[].`, depth + 1);
      }
    }
  };
  visit(schema, '', 0);
  return rows;
}

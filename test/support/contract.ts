import { readFileSync } from 'fs';
import { resolve } from 'path';
import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

/*
 * openapi.yaml as a third-party client reads it: answers are checked against
 * the document with Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1),
 * independently of the validator the app itself runs.
 */

export interface MediaType {
  schema?: object;
  examples?: Record<string, { value: unknown }>;
}
export interface ResponseObject {
  $ref?: string;
  description?: string;
  content?: Record<string, MediaType>;
}
export interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
}
export interface OpenApi {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object>; responses: Record<string, ResponseObject> };
}

export const SPEC_PATH = resolve(__dirname, '../../openapi.yaml');
export const specText = (): string => readFileSync(SPEC_PATH, 'utf8');
export const spec = parse(specText()) as OpenApi;

const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema(spec as unknown as object, 'openapi');
const compiled = new Map<string, ValidateFunction>();

const escape = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The spec path template (`/v1/games/{id}`) that a concrete path matches, if any. */
export function specPathOf(path: string): string | undefined {
  const bare = path.split('?')[0];
  return Object.keys(spec.paths).find((template) => {
    const pattern = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(bare);
  });
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text?: string;
}

/**
 * What is wrong with an answer by the document: an undeclared status, an
 * undeclared media type, or a JSON body its schema refuses. Empty when the
 * answer is as declared.
 */
export function contractProblems(method: string, path: string, answer: Answer): string[] {
  const template = specPathOf(path);
  const label = `${method.toUpperCase()} ${path.slice(0, 80)} → ${answer.status}`;
  if (!template) return [`${label}: the path is not in openapi.yaml`];
  const op = spec.paths[template][method.toLowerCase()];
  if (!op) return [`${label}: the method is not in openapi.yaml`];
  let pointer = `/paths/${escape(template)}/${method.toLowerCase()}/responses/${answer.status}`;
  let response = op.responses[String(answer.status)];
  if (!response) return [`${label}: status not declared (declared: ${Object.keys(op.responses).join(', ')})`];
  if (response.$ref) {
    pointer = response.$ref.slice(1);
    response = spec.components.responses[response.$ref.split('/').pop() as string];
  }
  if (!response.content) return [];
  const contentType = String(answer.headers['content-type'] ?? '').split(';')[0].trim();
  const media = response.content[contentType];
  if (!media) return [`${label}: content type "${contentType}" not declared (declared: ${Object.keys(response.content).join(', ')})`];
  if (contentType !== 'application/json' || !media.schema) return [];
  const ref = `openapi#${pointer}/content/${escape(contentType)}/schema`;
  let validate = compiled.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
  }
  if (validate(answer.body)) return [];
  const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
  return [`${label}: body breaks the schema (${errors.join('; ')}): ${JSON.stringify(answer.body).slice(0, 200)}`];
}

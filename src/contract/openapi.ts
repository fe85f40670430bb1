import { existsSync, readFileSync } from 'fs';
import { resolve } from 'path';
import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';

/*
 * openapi.yaml is the one description of the requests and answers. It is
 * read and compiled once, at start-up: one validator per documented
 * operation (path parameters, query, headers, body) and per declared answer,
 * and one per component schema (the GraphQL inputs mirror them). Requests are
 * then checked once, at the edge, by the transports.
 */

/** Where the OpenAPI document lives: the package root, found from here (src/contract, dist/contract, …). */
export const OPENAPI_PATH = ((): string => {
  for (let dir = __dirname, i = 0; i < 5; i++, dir = resolve(dir, '..')) {
    const candidate = resolve(dir, 'openapi.yaml');
    if (existsSync(candidate)) return candidate;
  }
  return resolve(__dirname, '../../openapi.yaml');
})();

/** One reason a request breaks the document: where (`/body/dice/0`, `/query/size`) and why. */
export interface Issue {
  readonly path: string;
  readonly message: string;
  /** The JSON Schema keyword that failed (`additionalProperties`, `enum`, …); absent for checks outside the schema. */
  readonly keyword?: string;
}

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  allowReserved?: boolean;
  schema?: Schema;
  $ref?: string;
}

interface ResponseObject {
  $ref?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: Schema }>;
}

/** How a caller proves who it is: a bearer token (`http`) or a key in a header (`apiKey`). */
interface SecurityScheme {
  type: string;
  in?: string;
  name?: string;
}

interface OperationObject {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, ResponseObject>;
}

interface Document {
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    parameters?: Record<string, Parameter>;
    responses?: Record<string, ResponseObject>;
    securitySchemes?: Record<string, SecurityScheme>;
  };
}

/** A validator of one part of a request, with the prefix of its issues' paths. */
interface PartCheck {
  readonly prefix: string;
  readonly validate: ValidateFunction;
  /** Header names as openapi.yaml spells them (`Idempotency-Key`), by the lower-case name a request carries. */
  readonly spelled?: ReadonlyMap<string, string>;
}

/** The issue of a failed part check, a header named as openapi.yaml (and every other refusal) spells it. */
export function partIssue(part: PartCheck): Issue {
  const issue = issueOfErrors(part.validate.errors!, part.prefix);
  const name = part.spelled && /^\/headers\/([^/]+)/.exec(issue.path)?.[1];
  const spelled = name ? part.spelled!.get(name) : undefined;
  return spelled ? { ...issue, path: issue.path.replace(`/headers/${name}`, `/headers/${spelled}`) } : issue;
}

/** How a declared answer is checked: no body, or a JSON body against the schema at `schema` (a pointer into the document). */
export type AnswerCheck = { readonly body: false } | { readonly body: true; readonly schema: string };

/** One operation (a method of a path) as compiled from the document. */
export interface Operation {
  readonly id: string;
  readonly method: string;
  readonly template: string;
  /** Documented query parameters, and those that must be sent percent-encoded (no `allowReserved`). */
  readonly query: ReadonlySet<string>;
  readonly encodedQuery: readonly string[];
  /** Validators of the query, the headers and the path parameters, in that order (absent parts have none). */
  readonly parameters: readonly PartCheck[];
  /** The JSON body: `null` when the operation takes none. */
  readonly body: { readonly required: boolean; readonly validate: ValidateFunction } | null;
  /** Declared answers by status (`200`, `4XX`, `default`). */
  readonly answers: ReadonlyMap<string, AnswerCheck>;
}

/** A path of the document with its operations by lower-case method. */
export interface Route {
  readonly template: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly operations: ReadonlyMap<string, Operation>;
}

/** JSON pointer escaping of one reference token. */
const token = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

const DOCUMENT_ID = 'openapi.yaml';

/** `#/components/…` inside a copied fragment points into the document added to Ajv under its id. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#')
        ? `${DOCUMENT_ID}${value}`
        : rebase(value);
  }
  return out;
}

/**
 * Ajv as the OpenAPI 3.1 dialect (JSON Schema 2020-12) reads the document:
 * one error at a time (the first is answered), `default`s filled in,
 * vocabulary of the document (description, example, …) ignored.
 */
function ajvFor(document: Document, options: { coerceTypes: boolean; useDefaults: boolean }): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    strictNumbers: true,
    strictTuples: true,
    allowUnionTypes: false,
    validateSchema: false,
    allErrors: false,
    removeAdditional: false,
    // Each referenced schema compiles to one function that every operation shares.
    inlineRefs: false,
    ...options,
  });
  addFormats(ajv);
  ajv.addSchema({ ...document }, DOCUMENT_ID);
  return ajv;
}

/** Routes sorted as the most specific first: literal segments before parameters (`/games/{id}/history` before `/games/{id}/{action}`). */
function specificFirst(a: string, b: string): number {
  const ka = a.replace(/\/\{/g, '/~');
  const kb = b.replace(/\/\{/g, '/~');
  if (ka.startsWith(kb)) return -1;
  if (kb.startsWith(ka)) return 1;
  return ka > kb ? 1 : -1;
}

/** Formats an Ajv error as an issue: the path names the offending field itself (`/body/variant` for a missing variant). */
export function issueOf(error: ErrorObject, prefix: string): Issue {
  const params = error.params as {
    missingProperty?: string;
    additionalProperty?: string;
    allowedValues?: unknown[];
  };
  const at = `${prefix}${error.instancePath}`;
  const named = params.missingProperty ?? params.additionalProperty;
  const message =
    error.keyword === 'enum' && Array.isArray(params.allowedValues)
      ? `${error.message}: ${params.allowedValues.join(', ')}`
      : (error.message ?? 'is invalid');
  return { path: named !== undefined ? `${at}/${named}` : at, message, keyword: error.keyword };
}

/**
 * The issue of a failed validation that tells the caller most. Ajv reports
 * the first alternative of an `anyOf` / `oneOf` first: `{"as": "gammon"}` of
 * a resign breaks the play alternative by an unknown field `as` and the
 * resign alternative by a value outside its enum; the second names the
 * allowed values. So among the errors of alternatives the deepest field wins,
 * and at equal depth a wrong value beats an unknown or missing field.
 */
export function issueOfErrors(errors: readonly ErrorObject[], prefix: string): Issue {
  // Ajv lists the errors of every alternative, then the `anyOf` / `oneOf` that none matched (paths inside referenced schemas are their own).
  const summary = (e: ErrorObject) => e.keyword === 'anyOf' || e.keyword === 'oneOf';
  if (!errors.some(summary)) return issueOf(errors[0], prefix);
  const rank = (issue: Issue) =>
    issue.path.split('/').length * 2 +
    (issue.keyword === 'additionalProperties' || issue.keyword === 'required' ? 0 : 1);
  let best = issueOf(errors[0], prefix);
  for (const error of errors) {
    if (summary(error)) continue;
    const issue = issueOf(error, prefix);
    if (rank(issue) > rank(best)) best = issue;
  }
  return best;
}

/**
 * Every request header the document names (header parameters, and the
 * headers of its security schemes: `Authorization` for a bearer token) and
 * every response header it declares, as written there.
 */
export function documentedHeaders(document: Document): { request: string[]; response: string[] } {
  const operations = Object.values(document.paths).flatMap((path) => Object.values(path));
  const parameters = operations
    .flatMap((op) => op.parameters ?? [])
    .map((p) => (p.$ref ? document.components.parameters?.[p.$ref.split('/').pop()!] : p));
  const schemes = Object.values(document.components.securitySchemes ?? {}).map((s) =>
    s.type === 'http' ? 'Authorization' : s.in === 'header' ? s.name : undefined,
  );
  const responses = [
    ...operations.flatMap((op) => Object.values(op.responses ?? {})),
    ...Object.values(document.components.responses ?? {}),
  ];
  const unique = (names: (string | undefined)[]): string[] => [
    ...new Set(names.filter((n): n is string => n !== undefined)),
  ];
  return {
    request: unique([...parameters.filter((p) => p?.in === 'header').map((p) => p?.name), ...schemes]),
    response: unique(responses.flatMap((r) => Object.keys(r.headers ?? {}))),
  };
}

/** The document, compiled. */
export class Contract {
  readonly document: Document;
  readonly routes: readonly Route[];
  /** Literal paths (lower case, no trailing slash) straight to their route. */
  private readonly literal = new Map<string, Route>();
  private readonly bodies: Ajv2020;
  private readonly answers: Ajv2020;

  constructor(document: Document) {
    this.document = document;
    const parameters = ajvFor(document, { coerceTypes: true, useDefaults: true });
    this.bodies = ajvFor(document, { coerceTypes: false, useDefaults: true });
    this.answers = ajvFor(document, { coerceTypes: false, useDefaults: false });
    const templates = Object.keys(document.paths).sort(specificFirst);
    this.routes = templates.map((template) => {
      const names: string[] = [];
      const source = template
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const param = /^\{([^}]+)\}$/.exec(part);
          if (param) {
            names.push(param[1]);
            return '([^/]+?)';
          }
          return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join('');
      const operations = new Map<string, Operation>();
      for (const [method, op] of Object.entries(document.paths[template])) {
        if (method.startsWith('x-') || ['parameters', 'summary', 'description'].includes(method)) continue;
        operations.set(method, this.compile(template, method, op, parameters));
      }
      const route: Route = { template, pattern: new RegExp(`^${source}/?$`, 'i'), names, operations };
      if (names.length === 0) this.literal.set(template.toLowerCase(), route);
      return route;
    });
  }

  /** The route a raw (not decoded) request path falls on, with its parameter values still encoded. */
  route(path: string): { route: Route; values: string[] } | null {
    const literal = this.literal.get(
      (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase(),
    );
    if (literal) return { route: literal, values: [] };
    for (const route of this.routes) {
      if (route.names.length === 0) continue;
      const m = route.pattern.exec(path);
      if (m) return { route, values: m.slice(1) };
    }
    return null;
  }

  /** The validator of a component schema (`MovesRequest`), compiled once: no coercion, defaults filled in. */
  schema(name: string): ValidateFunction {
    return this.compiled(this.bodies, `${DOCUMENT_ID}#/components/schemas/${token(name)}`);
  }

  /** The validator of one part (`query`, `headers`) of a documented operation's parameters. */
  parameters(operationId: string, part: 'query' | 'headers' | 'params'): ValidateFunction {
    for (const route of this.routes) {
      for (const op of route.operations.values()) {
        if (op.id !== operationId) continue;
        const check = op.parameters.find((p) => p.prefix === `/${part}`);
        if (check) return check.validate;
      }
    }
    throw new Error(`openapi.yaml has no ${part} parameters of ${operationId}`);
  }

  /**
   * The validator of a declared answer's body. Answers are checked in tests
   * only, so each is compiled on its first use (once), not at start-up.
   */
  answer(check: { readonly schema: string }): ValidateFunction {
    return this.compiled(this.answers, check.schema);
  }

  /** Ajv keeps what it compiled under the pointer: each schema is compiled once. */
  private compiled(ajv: Ajv2020, pointer: string): ValidateFunction {
    const validate = ajv.getSchema(pointer);
    if (!validate) throw new Error(`openapi.yaml has no schema at ${pointer}`);
    return validate;
  }

  private compile(template: string, method: string, op: OperationObject, parameters: Ajv2020): Operation {
    const pointer = `${DOCUMENT_ID}#/paths/${token(template)}/${method}`;
    const parts: Record<
      'query' | 'headers' | 'params',
      { properties: Record<string, unknown>; required: string[] } | undefined
    > = {
      query: undefined,
      headers: undefined,
      params: undefined,
    };
    const query = new Set<string>();
    const encodedQuery: string[] = [];
    const spelled = new Map<string, string>();
    for (const raw of op.parameters ?? []) {
      const p = raw.$ref
        ? (this.document.components.parameters ?? {})[raw.$ref.split('/').pop() as string]
        : raw;
      if (p.in === 'cookie') continue;
      const part = p.in === 'query' ? 'query' : p.in === 'header' ? 'headers' : 'params';
      const name = p.in === 'header' ? p.name.toLowerCase() : p.name;
      if (p.in === 'header') spelled.set(name, p.name);
      const target = (parts[part] ??= { properties: {}, required: [] });
      target.properties[name] = rebase(p.schema ?? {});
      if (p.required) target.required.push(name);
      if (p.in === 'query') {
        query.add(name);
        if (!p.allowReserved) encodedQuery.push(name);
      }
    }
    const checks: PartCheck[] = [];
    for (const part of ['query', 'headers', 'params'] as const) {
      const schema = parts[part];
      if (!schema) continue;
      checks.push({
        prefix: `/${part}`,
        validate: parameters.compile({ type: 'object', ...schema }),
        ...(part === 'headers' ? { spelled } : {}),
      });
    }
    let body: Operation['body'] = null;
    const json = op.requestBody?.content?.['application/json'];
    if (op.requestBody && json) {
      body = {
        required: op.requestBody.required !== false,
        validate: this.compiled(this.bodies, `${pointer}/requestBody/content/application~1json/schema`),
      };
    }
    const answerChecks = new Map<string, AnswerCheck>();
    for (const [status, declared] of Object.entries(op.responses ?? {})) {
      const response = declared.$ref
        ? (this.document.components.responses ?? {})[declared.$ref.split('/').pop() as string]
        : declared;
      if (!response.content) {
        answerChecks.set(status, { body: false });
        continue;
      }
      const type = Object.keys(response.content).find(
        (t) => /^[^/]+\/([^;+]*\+)?json\b/i.test(t) && response.content?.[t].schema,
      );
      if (!type) continue;
      const at = declared.$ref
        ? `${DOCUMENT_ID}#/components/responses/${token(declared.$ref.split('/').pop() as string)}`
        : `${pointer}/responses/${token(status)}`;
      answerChecks.set(status, { body: true, schema: `${at}/content/${token(type)}/schema` });
    }
    return {
      id: op.operationId,
      method,
      template,
      query,
      encodedQuery,
      parameters: checks,
      body,
      answers: answerChecks,
    };
  }
}

let loaded: Contract | null = null;

/** The compiled document of this package (read and compiled on first use, then shared). */
export function contract(): Contract {
  loaded ??= new Contract(parseYaml(readFileSync(OPENAPI_PATH, 'utf8')) as Document);
  return loaded;
}

import { Request, RequestHandler, Response } from 'express';
import { Contract, Issue, Operation, issueOf, issueOfErrors, partIssue } from '../contract/openapi';

/*
 * The one validation pass of a REST request, before any route: the path must
 * be a documented route and method, the query may hold only documented
 * parameters, and the parameters, headers and JSON body must match
 * openapi.yaml. Everything is compiled once (Contract); a request costs a
 * route lookup and the validators of its operation.
 */

/** A request refused at the edge: not found, wrong method, wrong media type, or an issue with the document. */
export class RequestRefusal extends Error {
  constructor(
    readonly status: 400 | 404 | 405 | 415,
    readonly issue: Issue,
    /** A 405's `Allow` header: the methods the route takes. */
    readonly allow?: readonly string[],
  ) {
    super(issue.message);
    this.name = 'RequestRefusal';
  }
}

/** The query of a request without a query string to an operation without query parameters. */
const NO_QUERY: Record<string, unknown> = Object.freeze({});

/** Characters a query value must send percent-encoded unless its parameter allows them (`allowReserved`). */
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/** The raw (not decoded) values of each query parameter, by raw name. */
function rawQuery(search: string): Map<string, (string | undefined)[]> {
  const pairs = new Map<string, (string | undefined)[]>();
  for (const pair of search.split('&')) {
    const [key, value] = pair.split('=');
    const values = pairs.get(key) ?? [];
    values.push(value);
    pairs.set(key, values);
  }
  return pairs;
}

function checkQuery(op: Operation, query: Record<string, unknown>, search: string): void {
  if (op.encodedQuery.length > 0 && search) {
    const raw = rawQuery(search);
    for (const name of op.encodedQuery) {
      for (const value of raw.get(name) ?? []) {
        if (value !== undefined && RESERVED.test(value)) {
          throw new RequestRefusal(400, {
            path: `/query/${name}`,
            message: `Parameter '${name}' must be url encoded. Its value may not contain reserved characters.`,
          });
        }
      }
    }
  }
  for (const key of Object.keys(query)) {
    // `a[b]=1` is parameter `a` in bracket notation.
    const name = key.includes('[') && key.indexOf('[') > 0 ? key.slice(0, key.indexOf('[')) : key;
    if (!op.query.has(name))
      throw new RequestRefusal(400, { path: `/query/${name}`, message: `Unknown query parameter '${name}'` });
    if (query[name] === '')
      throw new RequestRefusal(400, {
        path: `/query/${name}`,
        message: `Empty value found for query parameter '${name}'`,
      });
  }
}

/** `application/json`, with any parameters, in any case. */
function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';')[0].trim().toLowerCase() === 'application/json';
}

function checkBody(op: Operation, req: Request): void {
  if (!op.body) return;
  const contentType = req.headers['content-type'];
  if (!isJson(contentType)) {
    if (contentType === undefined && !op.body.required) return;
    throw new RequestRefusal(415, {
      path: req.path,
      message:
        contentType === undefined ? 'media type not specified' : `unsupported media type ${contentType}`,
    });
  }
  const body: unknown = req.body;
  if (body === undefined) {
    if (op.body.required)
      throw new RequestRefusal(400, {
        path: '/body',
        message: "must have required property 'body'",
        keyword: 'required',
      });
    return;
  }
  if (!op.body.validate(body))
    throw new RequestRefusal(400, issueOfErrors(op.body.validate.errors!, '/body'));
}

/** Checks each JSON answer of the operation against its declared status and schema; a mismatch is a 500. */
function checkAnswers(
  contract: Contract,
  op: Operation,
  res: Response,
  next: (error: unknown) => void,
): void {
  const original = res.json;
  res.json = function json(body: unknown) {
    res.json = original;
    if (res.headersSent || res.statusCode >= 500) return original.call(this, body);
    const status = String(res.statusCode);
    const check = op.answers.get(status) ?? op.answers.get(`${status[0]}XX`) ?? op.answers.get('default');
    let problem: string | null = null;
    if (!check) problem = `no schema defined for status code '${status}' in the openapi spec`;
    else if (!check.body) problem = body === undefined ? null : 'response should NOT have a body';
    else if (body === undefined || body === null) problem = 'response body required.';
    else {
      const validate = contract.answer(check);
      if (!validate(body)) {
        const issue = issueOf(validate.errors![0], '/response');
        problem = `${issue.path} ${issue.message}`;
      }
    }
    if (problem === null) return original.call(this, body);
    next(
      new Error(
        `${op.method.toUpperCase()} ${op.template} answered ${status} against openapi.yaml: ${problem}`,
      ),
    );
    return res;
  };
}

export interface ValidationOptions {
  /** Paths outside the REST API (GraphQL, docs, probes), left to their own handlers. */
  readonly ignore: RegExp;
  /** Check every JSON answer against openapi.yaml too (tests). */
  readonly answers: boolean;
}

/**
 * The request validator: a documented operation, or 404 / 405 / 415 / 400
 * (RequestRefusal). On success `req.params` holds the decoded path
 * parameters and `req.query` the query as validated (integers coerced,
 * defaults filled in).
 */
export function validateRequests(contract: Contract, options: ValidationOptions): RequestHandler {
  return (req, res, next) => {
    if (options.ignore.test(req.path)) {
      next();
      return;
    }
    const url = req.originalUrl;
    const mark = url.indexOf('?');
    const matched = contract.route(mark < 0 ? url : url.slice(0, mark));
    if (!matched) throw new RequestRefusal(404, { path: req.path, message: 'not found' });
    // The documented route names the request in metrics and logs, whether it is answered or refused.
    res.locals.route = matched.route.template;
    const op = matched.route.operations.get(req.method.toLowerCase());
    if (!op)
      throw new RequestRefusal(
        405,
        { path: req.path, message: `${req.method} method not allowed` },
        [...matched.route.operations.keys()].map((m) => m.toUpperCase()),
      );
    const params: Record<string, string> = {};
    try {
      matched.route.names.forEach((name, i) => {
        params[name] = decodeURIComponent(matched.values[i]);
      });
    } catch {
      throw new RequestRefusal(400, { path: req.path, message: "malformed uri'" });
    }
    const query = mark < 0 && op.query.size === 0 ? NO_QUERY : (req.query as Record<string, unknown>);
    if (query !== NO_QUERY) {
      // express parses the query on every read; the validated copy (coerced, with defaults) is the one routes see.
      Object.defineProperty(req, 'query', {
        value: query,
        writable: true,
        configurable: true,
        enumerable: true,
      });
      checkQuery(op, query, mark < 0 ? '' : url.slice(mark + 1));
    }
    if (op.parameters.length > 0) {
      const data: Record<string, unknown> = { query, headers: req.headers, params };
      for (const part of op.parameters) {
        if (!part.validate(data[part.prefix.slice(1)])) throw new RequestRefusal(400, partIssue(part));
      }
    }
    checkBody(op, req);
    req.params = params;
    if (options.answers) checkAnswers(contract, op, res, next);
    next();
  };
}

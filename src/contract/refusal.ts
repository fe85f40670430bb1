import { ErrorBody, ServiceErrorCode } from '../service/errors';
import { Issue } from './openapi';

/*
 * A request that breaks openapi.yaml, in the service's error shape, the same
 * over REST and GraphQL: a stable code by the field it breaks, the field as a
 * path (`position.white.points.24`, `dice[0]`), and what is wrong.
 */

/**
 * `/body/position/white/points/24` → `position.white.points.24`; `/body/dice/0` → `dice[0]`:
 * an array item by its index in brackets, an object member after a dot — `points` is an object
 * keyed by point numbers, so its members are written as the rules write them (`points.24`).
 */
export function fieldOf(path: string): string {
  const parts = path.replace(/^\/(body|headers|query|path|params)\/?/, '').split('/').filter(Boolean);
  let field = '';
  parts.forEach((part, i) => {
    const index = /^\d+$/.test(part) && parts[i - 1] !== 'points';
    field += index ? `[${part}]` : field ? `.${part}` : part;
  });
  return field;
}

/** The code of a request that breaks openapi.yaml, by where it breaks it. */
function codeOf(field: string, issue: Issue): ServiceErrorCode {
  if (issue.keyword === 'additionalProperties') return 'UNKNOWN_FIELD';
  if (/^Unknown query parameter/.test(issue.message)) return 'UNKNOWN_FIELD';
  const top = field.split(/[.[]/)[0];
  switch (top) {
    case 'dice':
      return 'INVALID_DICE';
    case 'position':
      return 'INVALID_POSITION';
    case 'positionId':
    case 'matchId':
      return 'INVALID_POSITION_ID';
    case 'steps':
      return 'INVALID_STEPS';
    case 'notation':
      return 'INVALID_NOTATION';
    case 'rules':
      return 'INVALID_RULES';
    case 'match':
      return 'INVALID_MATCH';
    case 'cube':
      return 'INVALID_CUBE';
    default:
      return 'INVALID_REQUEST';
  }
}

/**
 * The error body of an issue: `field` is the offending field as a REST
 * request names it, `at` the field path of the value that was checked
 * (GraphQL checks a diagram's `position` alone; '' = the whole request).
 */
export function refusalBody(issue: Issue, at = ''): ErrorBody {
  const inner = fieldOf(issue.path);
  const field = at && inner ? `${at}${inner.startsWith('[') ? '' : '.'}${inner}` : at || inner;
  const code = codeOf(field, issue);
  const message = `${field || 'request'}: ${issue.message}`.slice(0, 300);
  return { code, message, ...(field ? { field } : {}) };
}

import { GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { GRAPHQL_LIMIT_CODES, ServiceError } from '../service/errors';

/** Codes of the document limits and the analysis cost cap, which Apollo would file under its own code. */
const LIMIT_CODES: ReadonlySet<string> = new Set([...GRAPHQL_LIMIT_CODES, 'ANALYSIS_TOO_COSTLY']);

/**
 * Maps every error to a clean GraphQL error: service errors keep their code
 * and field (argument validation is a ServiceError too: inputs.ts), GraphQL's
 * own parse/validation errors keep Apollo's code, and anything else becomes
 * INTERNAL with no internal detail (never a stack trace).
 */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (original instanceof ServiceError) {
    const { code, message, field, rule, stepIndex, retryAfter, allowed, version, estimate, limit } = original.body;
    return {
      message,
      path: formatted.path,
      extensions: { code, field, rule, stepIndex, retryAfter, allowed, version, estimate, limit, http: { status: original.status } },
    };
  }
  // Limits reported by our validation rules keep their own code (Apollo files them under GRAPHQL_VALIDATION_FAILED).
  const inner = (error as { originalError?: { extensions?: { code?: unknown } }; extensions?: { code?: unknown } } | null);
  const own = inner?.originalError?.extensions?.code ?? inner?.extensions?.code;
  if (typeof own === 'string' && LIMIT_CODES.has(own)) {
    return { message: formatted.message, locations: formatted.locations, extensions: { code: own } };
  }
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') {
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
  }
  return { message: 'internal error', path: formatted.path, extensions: { code: 'INTERNAL' } };
}

import { ApolloServerPlugin } from '@apollo/server';
import {
  ASTVisitor,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLError,
  GraphQLSchema,
  Kind,
  SelectionSetNode,
  ValidationContext,
} from 'graphql';
import { ComplexityEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { AnalysisService } from '../service/analysis/service';
import { ServiceError } from '../service/errors';
import { request } from './inputs';
import { SETTING_DEFAULTS } from '../limits';

/**
 * Limits on GraphQL documents (abuse resistance): nesting depth, aliases
 * and an estimated complexity, each failing with a clear coded error.
 * Batched requests are refused by Apollo (batching is off).
 */
export interface GraphqlLimits {
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxComplexity: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphqlLimits = {
  maxDepth: SETTING_DEFAULTS.graphqlMaxDepth,
  maxAliases: SETTING_DEFAULTS.graphqlMaxAliases,
  maxComplexity: SETTING_DEFAULTS.graphqlMaxComplexity,
};

/**
 * The introspection entry points. Tools (GraphiQL, code generators, Postman) send graphql-js's
 * standard introspection query, whose type references nest about 15 levels deep: those subtrees
 * are measured against their own, larger bound instead of the limit on ordinary queries.
 */
const INTROSPECTION_FIELDS: ReadonlySet<string> = new Set(['__schema', '__type']);
/** Deep enough for the standard introspection query (and graphql 17's deeper type references). */
export const MAX_INTROSPECTION_DEPTH = 20;

/** Depth of ordinary selections; the deepest introspection subtree is recorded in `introspection`. */
function depthOf(
  set: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  seen: Set<string>,
  introspection: { depth: number },
): number {
  if (!set) return 0;
  let max = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const field = selection as FieldNode;
      const depth = 1 + depthOf(field.selectionSet, fragments, seen, introspection);
      if (INTROSPECTION_FIELDS.has(field.name.value)) introspection.depth = Math.max(introspection.depth, depth);
      else max = Math.max(max, depth);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      max = Math.max(max, depthOf(selection.selectionSet, fragments, seen, introspection));
    } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const name = selection.name.value;
      if (seen.has(name)) continue; // cycles are reported by GraphQL's own rules
      const fragment = fragments[name];
      if (fragment) {
        seen.add(name);
        max = Math.max(max, depthOf(fragment.selectionSet, fragments, seen, introspection));
        seen.delete(name);
      }
    }
  }
  return max;
}

export function depthLimitRule(maxDepth: number) {
  const maxIntrospectionDepth = Math.max(maxDepth, MAX_INTROSPECTION_DEPTH);
  return (context: ValidationContext): ASTVisitor => {
    const document = context.getDocument();
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
    return {
      OperationDefinition(node) {
        const introspection = { depth: 0 };
        const depth = depthOf(node.selectionSet, fragments, new Set(), introspection);
        const [nested, limit, what] =
          depth > maxDepth
            ? [depth, maxDepth, 'the query']
            : introspection.depth > maxIntrospectionDepth
              ? [introspection.depth, maxIntrospectionDepth, 'the introspection query']
              : [0, 0, ''];
        if (nested > 0) {
          context.reportError(
            new GraphQLError(`${what} is nested ${nested} levels deep; the limit is ${limit}`, {
              nodes: [node],
              extensions: { code: 'QUERY_TOO_DEEP' },
            }),
          );
        }
      },
    };
  };
}

export function aliasLimitRule(maxAliases: number) {
  return (context: ValidationContext): ASTVisitor => {
    let aliases = 0;
    let reported = false;
    return {
      Field(node) {
        if (node.alias) aliases++;
        if (aliases > maxAliases && !reported) {
          reported = true;
          context.reportError(
            new GraphQLError(`the query uses more than ${maxAliases} aliases`, { nodes: [node], extensions: { code: 'TOO_MANY_ALIASES' } }),
          );
        }
      },
    };
  };
}

/**
 * The cost of an analysis field (the same service functions as REST), its
 * input read as the request it mirrors; 0 for any other field, and for an
 * input that is not a valid request (its error comes when it runs).
 */
function fieldCost(analysis: AnalysisService, field: string, input: object): number {
  try {
    switch (field) {
      case 'evaluate':
        return analysis.cost('evaluate', request('EvaluateRequest', input));
      case 'evaluateBatch':
        return analysis.cost('batch', request('EvaluateBatchRequest', input));
      case 'bestMoves':
        return analysis.cost('best', request('BestMovesRequest', input));
      case 'rollout':
        return analysis.cost('rollout', request('RolloutRequest', input));
      default:
        return 0;
    }
  } catch (e) {
    if (e instanceof ServiceError) return 0;
    throw e;
  }
}

/** Prices analysis fields by the cost model (network evaluations); every other field costs nothing here. */
function analysisEstimator(analysis: AnalysisService): ComplexityEstimator {
  return ({ field, args, childComplexity }) => childComplexity + fieldCost(analysis, field.name, args.input as object);
}

/**
 * Rejects operations before anything runs: when their estimated size (one
 * per field, times list arguments) exceeds `maxComplexity`, or when their
 * analysis fields together would cost more network evaluations than one
 * request may (ANALYSIS_MAX_COST) — so a document of aliased rollouts is
 * refused as one over-costly REST request is.
 */
export function complexityPlugin(schema: GraphQLSchema, maxComplexity: number, analysis?: AnalysisService): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const measure = (estimator: ComplexityEstimator): number | null => {
            try {
              return getComplexity({ schema, query: document, operationName: request.operationName, variables: request.variables, estimators: [estimator] });
            } catch {
              // Bad variables: execution reports them as BAD_USER_INPUT (400).
              return null;
            }
          };
          const complexity = measure(simpleEstimator({ defaultComplexity: 1 }));
          if (complexity !== null && complexity > maxComplexity) {
            throw new GraphQLError(`the query costs ${complexity}; the limit is ${maxComplexity}`, {
              extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } },
            });
          }
          if (!analysis) return;
          const cost = measure(analysisEstimator(analysis));
          if (cost !== null && cost > analysis.costLimit) {
            throw new GraphQLError(
              `the analysis fields would cost about ${cost} network evaluations; the limit is ${analysis.costLimit} (ANALYSIS_MAX_COST)`,
              { extensions: { code: 'ANALYSIS_TOO_COSTLY', estimate: cost, limit: analysis.costLimit, http: { status: 422 } } },
            );
          }
        },
      };
    },
  };
}

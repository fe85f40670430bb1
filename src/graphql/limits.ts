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
import { AnalysisOperation } from '../service/analysis/cost';

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

export const DEFAULT_GRAPHQL_LIMITS: GraphqlLimits = { maxDepth: 10, maxAliases: 30, maxComplexity: 5000 };

function depthOf(
  set: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  seen: Set<string>,
): number {
  if (!set) return 0;
  let max = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      max = Math.max(max, 1 + depthOf((selection as FieldNode).selectionSet, fragments, seen));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      max = Math.max(max, depthOf(selection.selectionSet, fragments, seen));
    } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const name = selection.name.value;
      if (seen.has(name)) continue; // cycles are reported by GraphQL's own rules
      const fragment = fragments[name];
      if (fragment) {
        seen.add(name);
        max = Math.max(max, depthOf(fragment.selectionSet, fragments, seen));
        seen.delete(name);
      }
    }
  }
  return max;
}

export function depthLimitRule(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const document = context.getDocument();
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, fragments, new Set());
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(`the query is nested ${depth} levels deep; the limit is ${maxDepth}`, {
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

/** The analysis operation of each analysis field (the same service functions as REST). */
const ANALYSIS_FIELDS: Readonly<Record<string, AnalysisOperation>> = {
  evaluate: 'evaluate',
  evaluateBatch: 'batch',
  bestMoves: 'best',
  rollout: 'rollout',
};

/** Prices analysis fields by the cost model (network evaluations); every other field costs nothing here. */
function analysisEstimator(analysis: AnalysisService): ComplexityEstimator {
  return ({ field, args, childComplexity }) => {
    const op = ANALYSIS_FIELDS[field.name];
    return childComplexity + (op ? analysis.cost(op, args.input) : 0);
  };
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

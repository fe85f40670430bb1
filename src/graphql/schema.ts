import 'reflect-metadata';
import { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AnalysisResolver } from './analysis';
import { DiagramResolver } from './diagram';
import { GamesResolver } from './games';
import { JobsResolver } from './jobs';
import { ScoringResolver } from './scoring';
import { HealthResolver, MovesResolver, VariantsResolver } from './resolvers';

export const RESOLVERS = [HealthResolver, VariantsResolver, MovesResolver, ScoringResolver, AnalysisResolver, GamesResolver, DiagramResolver, JobsResolver] as const;

/** Builds the executable schema. Input validation by class-validator is on (type-graphql leaves it off by default). */
export function buildGraphqlSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [...RESOLVERS],
    validate: { forbidUnknownValues: true, validationError: { target: false, value: false } },
  });
}

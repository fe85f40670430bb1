import 'reflect-metadata';
import { GraphQLSchema } from 'graphql';
import { PubSub, buildSchema } from 'type-graphql';
import { AnalysisResolver } from './analysis';
import { DiagramResolver } from './diagram';
import { GamesResolver } from './games';
import { GameStatesResolver } from './game-states';
import { JobsResolver } from './jobs';
import { ScoringResolver } from './scoring';
import { HealthResolver, MovesResolver, VariantsResolver } from './resolvers';
import { SideCheckersResolver } from './position';

export const RESOLVERS = [HealthResolver, VariantsResolver, MovesResolver, ScoringResolver, AnalysisResolver, GamesResolver, GameStatesResolver, DiagramResolver, JobsResolver, SideCheckersResolver] as const;

/**
 * Subscriptions follow the session store themselves (`subscribe` of each
 * field); type-graphql still asks for a topic-based PubSub, which no field
 * uses, so any use of one is a programming error.
 */
const NO_TOPICS: PubSub = {
  publish: () => {
    throw new Error('subscriptions here have no topics');
  },
  subscribe: () => {
    throw new Error('subscriptions here have no topics');
  },
};

/** Builds the executable schema. Inputs are checked by the resolvers against openapi.yaml (inputs.ts), not by type-graphql. */
export function buildGraphqlSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [...RESOLVERS],
    pubSub: NO_TOPICS,
    validate: false,
  });
}

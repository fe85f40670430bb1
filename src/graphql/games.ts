import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Field, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, Root, Subscription } from 'type-graphql';
import { fail } from '../service/errors';
import { exportSession } from '../service/matches/sessions';
import { ActionName } from '../service/sessions/service';
import { GraphqlContext } from './context';
import { StepInput, VariantInput, parameters, request } from './inputs';
import { perSideType } from './shapes';
import { Step, Turn } from './types';

/* Game sessions over GraphQL: the same service functions as /v1/games. */

@InputType({ description: 'A match to N points (Crawford rule on unless switched off).' })
export class MatchInput {
  @Field(() => Int)
  length!: number;

  @Field(() => Boolean, { nullable: true })
  crawford?: boolean;
}

@InputType({ description: 'As POST /v1/games.' })
export class CreateGameInput extends VariantInput {
  @Field(() => MatchInput, { nullable: true })
  match?: MatchInput;

  @Field(() => Boolean, { nullable: true })
  cube?: boolean;
}

@ObjectType()
export class Expects {
  @Field(() => String)
  seat!: string;
  @Field(() => String, { description: 'roll, play, respond or next-game' })
  action!: string;
}

export const AllowedActions = perSideType<string[]>('AllowedActions', () => [String], 'What each seat may do now: roll, play, double, take, drop, beaver, raccoon, resign, next-game.');
export type AllowedActions = InstanceType<typeof AllowedActions>;

@ObjectType({ description: 'Short nardy: the session as gnubg writes it (white is gnubg\'s player 0).' })
export class GnubgIds {
  @Field(() => String, { description: 'The gnubg Position ID, seen from the player on roll.' })
  positionId!: string;
  @Field(() => String, { description: 'The gnubg Match ID.' })
  matchId!: string;
  @Field(() => String, { description: 'PositionID:MatchID, as gnubg\'s set gnubgid reads it.' })
  id!: string;
}

@ObjectType()
export class CubeView {
  @Field(() => Int)
  value!: number;
  @Field(() => String)
  owner!: string;
  @Field(() => String, { nullable: true })
  offeredBy?: string;
  @Field(() => Boolean)
  enabled!: boolean;
}

export const MatchScore = perSideType<number>('MatchScore', () => Int);
export type MatchScore = InstanceType<typeof MatchScore>;

/** A match to `length` points and its score, as a session and a scored game show it (CUBE-6). */
@ObjectType()
export abstract class MatchFields {
  @Field(() => Int)
  length!: number;
  @Field(() => Boolean)
  crawford!: boolean;
  @Field(() => MatchScore)
  score!: MatchScore;
}

@ObjectType()
export class MatchView extends MatchFields {
  @Field(() => Boolean)
  crawfordGame!: boolean;
  @Field(() => String, { nullable: true })
  winner?: string;
}

@ObjectType({ description: 'The value of a finished game.' })
export class Score {
  @Field(() => String, { nullable: true })
  winner!: string | null;
  @Field(() => String)
  result!: string;
  @Field(() => Int)
  multiplier!: number;
  @Field(() => Int)
  cubeValue!: number;
  @Field(() => Int)
  points!: number;
  @Field(() => String)
  rule!: string;
  @Field(() => String)
  explanation!: string;
  @Field(() => Int, { nullable: true })
  checkersLeft?: number;
}

@ObjectType()
export class Commitment {
  @Field(() => String)
  commitment!: string;
}

@ObjectType({ description: 'A game session as GET /v1/games/{id} shows it.' })
export class Game {
  @Field(() => ID)
  id!: string;
  @Field(() => String)
  variant!: string;
  @Field(() => String)
  family!: string;
  @Field(() => String, { description: 'playing or finished' })
  status!: string;
  @Field(() => Int)
  version!: number;
  @Field(() => Int)
  game!: number;
  @Field(() => GraphQLJSONObject)
  position!: object;
  @Field(() => String)
  positionId!: string;
  @Field(() => [Int], { nullable: true })
  dice!: number[] | null;
  @Field(() => CubeView, { nullable: true })
  cube!: CubeView | null;
  @Field(() => MatchView, { nullable: true })
  match!: MatchView | null;
  @Field(() => Expects, { nullable: true })
  expects!: Expects | null;
  @Field(() => AllowedActions)
  allowed!: AllowedActions;
  @Field(() => GnubgIds, { nullable: true })
  gnubg?: GnubgIds;
  @Field(() => [Turn], { nullable: true })
  legalTurns?: Turn[];
  @Field(() => Score, { nullable: true })
  result?: Score;
  @Field(() => Commitment)
  fairness!: Commitment;
}

@ObjectType()
export class SeatToken {
  @Field(() => String)
  token!: string;
}

export const Seats = perSideType<SeatToken>('Seats', () => SeatToken);
export type Seats = InstanceType<typeof Seats>;

@ObjectType({ description: 'A new game: keep each seat token secret; it authorises that seat\'s actions.' })
export class CreatedGame {
  @Field(() => ID)
  id!: string;
  @Field(() => Seats)
  seats!: Seats;
  @Field(() => Game)
  state!: Game;
  @Field(() => Int)
  version!: number;
}

@ObjectType()
export class GameEvent {
  @Field(() => Int)
  n!: number;
  @Field(() => String)
  at!: string;
  @Field(() => Int)
  game!: number;
  @Field(() => String)
  type!: string;
  @Field(() => String, { nullable: true })
  seat!: string | null;
  @Field(() => [Int], { nullable: true })
  dice?: number[];
  @Field(() => [Step], { nullable: true })
  steps?: Step[];
  @Field(() => String, { nullable: true })
  notation?: string;
  @Field(() => String, { nullable: true })
  positionId?: string;
  @Field(() => Int, { nullable: true })
  cubeValue?: number;
  @Field(() => Score, { nullable: true })
  result?: Score;
}

@ObjectType()
export class RollRecordView {
  @Field(() => Int)
  index!: number;
  @Field(() => [Int])
  dice!: number[];
  @Field(() => String)
  purpose!: string;
  @Field(() => String, { nullable: true })
  by!: string | null;
}

@ObjectType()
export class FairnessGame {
  @Field(() => Int)
  number!: number;
  @Field(() => String)
  commitment!: string;
  @Field(() => String, { nullable: true, description: 'Revealed once the game is over.' })
  seed!: string | null;
  @Field(() => [RollRecordView])
  rolls!: RollRecordView[];
}

@ObjectType()
export class Fairness {
  @Field(() => ID)
  id!: string;
  @Field(() => String)
  scheme!: string;
  @Field(() => [FairnessGame])
  games!: FairnessGame[];
}

@InputType({ description: 'Optimistic concurrency and retries, as If-Match and Idempotency-Key.' })
export class ActionOptions {
  @Field(() => Int, { nullable: true })
  expectedVersion?: number;

  @Field(() => String, { nullable: true })
  idempotencyKey?: string;
}

@InputType({ description: 'A play of the current stage: steps or notation.' })
export class PlayInput {
  @Field(() => [StepInput], { nullable: true })
  steps?: StepInput[];

  @Field(() => String, { nullable: true })
  notation?: string;
}

const CUBE_OR_SIMPLE = ['roll', 'double', 'take', 'drop', 'beaver', 'raccoon', 'next-game'] as const;

@Resolver()
export class GamesResolver {
  @Mutation(() => CreatedGame, { description: 'As POST /v1/games.' })
  async createGame(@Arg('input', () => CreateGameInput) input: CreateGameInput, @Ctx() ctx: GraphqlContext): Promise<CreatedGame> {
    return (await ctx.services.sessions.create(request('CreateGameRequest', input), ctx.caller.client)).body;
  }

  @Query(() => Game, { description: 'As GET /v1/games/{id}.' })
  async game(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<Game> {
    return (await ctx.services.sessions.get(id)).body;
  }

  @Query(() => [GameEvent], { description: 'As GET /v1/games/{id}/history.' })
  async gameHistory(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<GameEvent[]> {
    return (await ctx.services.sessions.history(id)).body.events;
  }

  @Query(() => String, { description: 'As GET /v1/games/{id}/export: the session as a match file, format "mat" (Jellyfish / gnubg; the long-nardy dialect for the long family) or "sgf" (gnubg SGF, backgammon only).' })
  async gameMatchFile(@Arg('id', () => ID) id: string, @Arg('format', () => String) format: string, @Ctx() ctx: GraphqlContext): Promise<string> {
    return exportSession(ctx.services.sessions, id, format);
  }

  @Query(() => Fairness, { description: 'As GET /v1/games/{id}/fairness.' })
  async gameFairness(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<Fairness> {
    return (await ctx.services.sessions.fairness(id)).body;
  }

  @Subscription(() => GameEvent, {
    description:
      'Every event of the game (as gameHistory) after event number `after` (default 0: the whole history), then each new event as it is saved, on any replica; completes when the game (the match) is over. Over graphql-ws on /graphql; as GET /v1/games/{id}/events.',
    subscribe: async ({ args, context }) => (context as GraphqlContext).services.sessions.follow(String(args.id), args.after ?? 0),
  })
  gameEvents(
    @Root() event: GameEvent,
    @Arg('id', () => ID) _id: string,
    @Arg('after', () => Int, { nullable: true, description: 'The number of the last event the client has.' }) _after?: number,
  ): GameEvent {
    return event;
  }

  private async act(ctx: GraphqlContext, id: string, action: ActionName, body: unknown, options?: ActionOptions): Promise<Game> {
    // The Idempotency-Key header's limits hold for the option too.
    if (options?.idempotencyKey != null) parameters('gameAction', 'headers', { 'idempotency-key': options.idempotencyKey }, 'options');
    const answer = await ctx.services.sessions.act(id, action, body, {
      token: ctx.token,
      ifMatch: options?.expectedVersion,
      idempotencyKey: options?.idempotencyKey,
    });
    return answer.body;
  }

  @Mutation(() => Game, { description: 'A session action without a body: roll, double, take, drop, beaver, raccoon or next-game (POST /v1/games/{id}/{action}). Authorization: Bearer <seat token>.' })
  async gameAction(
    @Arg('id', () => ID) id: string,
    @Arg('action', () => String) action: string,
    @Arg('options', () => ActionOptions, { nullable: true }) options: ActionOptions | undefined,
    @Ctx() ctx: GraphqlContext,
  ): Promise<Game> {
    if (!(CUBE_OR_SIMPLE as readonly string[]).includes(action)) {
      fail('INVALID_REQUEST', `action must be one of ${CUBE_OR_SIMPLE.join(', ')} (play and resign have their own mutations)`, {
        field: 'action',
      });
    }
    return this.act(ctx, id, action as ActionName, {}, options);
  }

  @Mutation(() => Game, { description: 'As POST /v1/games/{id}/play.' })
  async playTurn(
    @Arg('id', () => ID) id: string,
    @Arg('play', () => PlayInput) play: PlayInput,
    @Arg('options', () => ActionOptions, { nullable: true }) options: ActionOptions | undefined,
    @Ctx() ctx: GraphqlContext,
  ): Promise<Game> {
    return this.act(ctx, id, 'play', request('PlayRequest', play, 'play'), options);
  }

  @Mutation(() => Game, { description: 'As POST /v1/games/{id}/resign.' })
  async resign(
    @Arg('id', () => ID) id: string,
    @Arg('as', () => String, { nullable: true }) level: string | undefined,
    @Arg('options', () => ActionOptions, { nullable: true }) options: ActionOptions | undefined,
    @Ctx() ctx: GraphqlContext,
  ): Promise<Game> {
    return this.act(ctx, id, 'resign', request('ResignRequest', level ? { as: level } : {}, ''), options);
  }
}


import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { fail } from '../service/errors';
import { ActionBody } from '../contract/requests';
import { exportSession } from '../service/matches/sessions';
import { MatchFileFormat } from '../service/matches/types';
import { ActionName } from '../service/sessions/service';
import { argsType, described, fields, inputType, objectType, optional, perSideType } from './build';
import { Position } from './position';
import { ExpectedActionEnum, FamilyEnum, GameStatusEnum, ResignLevelEnum, SessionActionEnum, SideEnum, VariantNameEnum } from './enums';
import { GraphqlContext } from './context';
import { StepInput, VariantInput, parameters, request } from './inputs';
import { Step, Turn } from './types';

/* Game sessions over GraphQL: the same service functions as /v1/games. */

export const MatchInput = inputType('MatchInput', { length: Int, crawford: optional(Boolean) }, 'A match to N points (Crawford rule on unless switched off).');

export const CreateGameInput = inputType('CreateGameInput', { match: optional(MatchInput), cube: optional(Boolean) }, { description: 'As POST /v1/games.', extends: VariantInput });
export type CreateGameInput = InstanceType<typeof CreateGameInput>;

export const Expects = objectType('Expects', { seat: SideEnum, action: ExpectedActionEnum });

export const AllowedActions = perSideType('AllowedActions', [SessionActionEnum], 'What each seat may do now: roll, play, double, take, drop, beaver, raccoon, resign, next-game.');

export const GnubgIds = objectType(
  'GnubgIds',
  {
    positionId: described(String, 'The gnubg Position ID, seen from the player on roll.'),
    matchId: described(String, 'The gnubg Match ID.'),
    id: described(String, "PositionID:MatchID, as gnubg's set gnubgid reads it."),
  },
  "Short nardy: the session as gnubg writes it (white is gnubg's player 0).",
);

export const CubeView = objectType('CubeView', { value: Int, owner: String, offeredBy: optional(String), enabled: Boolean });

export const MatchScore = perSideType('MatchScore', Int);

/** A match to `length` points and its score, as a session and a scored game show it (CUBE-6). */
export const MatchFields = objectType('MatchFields', { length: Int, crawford: Boolean, score: MatchScore });

export const MatchView = objectType('MatchView', { crawfordGame: Boolean, winner: optional(SideEnum) }, { extends: MatchFields });

export const Score = objectType(
  'Score',
  { winner: optional(SideEnum), result: String, multiplier: Int, cubeValue: Int, points: Int, rule: String, explanation: String, checkersLeft: optional(Int) },
  'The value of a finished game.',
);

export const Commitment = objectType('Commitment', { commitment: String });

export const Game = objectType(
  'Game',
  {
    id: ID,
    variant: VariantNameEnum,
    family: FamilyEnum,
    status: GameStatusEnum,
    version: Int,
    game: Int,
    position: Position,
    positionId: String,
    dice: optional([Int]),
    cube: optional(CubeView),
    match: optional(MatchView),
    expects: optional(Expects),
    allowed: AllowedActions,
    gnubg: optional(GnubgIds),
    legalTurns: optional([Turn]),
    result: optional(Score),
    fairness: Commitment,
  },
  'A game session as GET /v1/games/{id} shows it.',
);
export type Game = InstanceType<typeof Game>;

export const SeatToken = objectType('SeatToken', { token: String });

export const Seats = perSideType('Seats', SeatToken);

export const CreatedGame = objectType(
  'CreatedGame',
  { id: ID, seats: Seats, state: Game, version: Int },
  "A new game: keep each seat token secret; it authorises that seat's actions.",
);
export type CreatedGame = InstanceType<typeof CreatedGame>;

/** The fields of an event of the game reducer (the history numbers and times them). */
export const EVENT_FIELDS = fields({
  game: Int, type: String, seat: optional(SideEnum),
  // What the event carries, by its type: the dice rolled, the play made, the cube's new value, the result.
  dice: optional([Int]), steps: optional([Step]), notation: optional(String), positionId: optional(String),
  cubeValue: optional(Int), result: optional(Score),
});

export const GameEvent = objectType('GameEvent', { n: Int, at: String, ...EVENT_FIELDS });
export type GameEvent = InstanceType<typeof GameEvent>;

export const RollRecordView = objectType('RollRecordView', { index: Int, dice: [Int], purpose: String, by: optional(String) });

export const FairnessGame = objectType('FairnessGame', {
  number: Int,
  commitment: String,
  seed: optional(String, 'Revealed once the game is over.'),
  rolls: [RollRecordView],
});

export const Fairness = objectType('Fairness', { id: ID, scheme: String, games: [FairnessGame] });
export type Fairness = InstanceType<typeof Fairness>;

export const ActionOptions = inputType(
  'ActionOptions',
  { expectedVersion: optional(Int), idempotencyKey: optional(String) },
  'Optimistic concurrency and retries, as If-Match and Idempotency-Key.',
);
export type ActionOptions = InstanceType<typeof ActionOptions>;

export const PlayInput = inputType('PlayInput', { steps: optional([StepInput]), notation: optional(String) }, 'A play of the current stage: steps or notation.');
export type PlayInput = InstanceType<typeof PlayInput>;

/*
 * The arguments of the session actions: the options, what the action needs,
 * the game. The schema has always listed them in this order (type-graphql
 * met the parameter decorators they were once written as last first).
 */
const OPTIONS = fields({ options: optional(ActionOptions) });
const GameActionArgs = argsType('GameActionArgs', { ...OPTIONS, action: SessionActionEnum, id: ID });
type GameActionArgs = InstanceType<typeof GameActionArgs>;
const PlayArgs = argsType('PlayArgs', { ...OPTIONS, play: PlayInput, id: ID });
type PlayArgs = InstanceType<typeof PlayArgs>;
const ResignArgs = argsType('ResignArgs', { ...OPTIONS, as: optional(ResignLevelEnum), id: ID });
type ResignArgs = InstanceType<typeof ResignArgs>;
/** What every session action takes: the game and the options. */
type ActionArgs = { readonly id: string; readonly options?: ActionOptions | null };

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
    // The format is checked as GET /v1/games/{id}/export checks its query.
    return exportSession(ctx.services.sessions, id, parameters('exportGame', 'query', { format }).format as MatchFileFormat);
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

  private async act(ctx: GraphqlContext, { id, options }: ActionArgs, action: ActionName, body: ActionBody): Promise<Game> {
    // The Idempotency-Key header's limits hold for the option too.
    if (options?.idempotencyKey != null) parameters('gameAction', 'headers', { 'idempotency-key': options.idempotencyKey });
    // An option sent as null is absent, as every null field of an input is (inputs.ts).
    const answer = await ctx.services.sessions.act(id, action, body, {
      token: ctx.token,
      ifMatch: options?.expectedVersion ?? undefined,
      idempotencyKey: options?.idempotencyKey ?? undefined,
    });
    return answer.body;
  }

  @Mutation(() => Game, { description: 'A session action without a body: roll, double, take, drop, beaver, raccoon or next-game (POST /v1/games/{id}/{action}). Authorization: Bearer <seat token>.' })
  async gameAction(@Args(() => GameActionArgs) args: GameActionArgs, @Ctx() ctx: GraphqlContext): Promise<Game> {
    if (!(CUBE_OR_SIMPLE as readonly string[]).includes(args.action)) {
      fail('INVALID_REQUEST', `action must be one of ${CUBE_OR_SIMPLE.join(', ')} (play and resign have their own mutations)`, {
        field: 'action',
      });
    }
    return this.act(ctx, args, args.action as ActionName, {});
  }

  @Mutation(() => Game, { description: 'As POST /v1/games/{id}/play.' })
  async playTurn(@Args(() => PlayArgs) args: PlayArgs, @Ctx() ctx: GraphqlContext): Promise<Game> {
    return this.act(ctx, args, 'play', request('PlayRequest', args.play));
  }

  @Mutation(() => Game, { description: 'As POST /v1/games/{id}/resign.' })
  async resign(@Args(() => ResignArgs) args: ResignArgs, @Ctx() ctx: GraphqlContext): Promise<Game> {
    return this.act(ctx, args, 'resign', request('ResignRequest', args.as ? { as: args.as } : {}));
  }
}


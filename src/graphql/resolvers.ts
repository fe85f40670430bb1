import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { GraphqlContext } from './context';
import { valueOf } from '../service/cache';
import { listMoves, validateMove } from '../service/moves';
import { listVariants } from '../service/variants';
import { MovesInput, ValidateInput, request } from './inputs';
import { Health, MovesResult, ValidationResult, Variant } from './types';

/* Thin resolvers: parse (done by the input types), call one service function, return its view. */

@Resolver()
export class HealthResolver {
  @Query(() => Health, { description: 'Liveness, as GET /health.' })
  health(): Health {
    return { status: 'ok' };
  }
}

@Resolver()
export class VariantsResolver {
  @Query(() => [Variant], { description: 'Every preset with its option table, as GET /v1/variants.' })
  variants(): Variant[] {
    return listVariants().variants;
  }
}

@Resolver()
export class MovesResolver {
  @Query(() => MovesResult, { description: 'Every legal play of the current stage, as POST /v1/moves.' })
  async moves(@Arg('input', () => MovesInput) input: MovesInput, @Ctx() ctx: GraphqlContext): Promise<MovesResult> {
    return valueOf(await listMoves(request('MovesRequest', input), ctx.services.cache));
  }

  @Query(() => ValidationResult, { description: 'Validates a play or a prefix of one, as POST /v1/moves/validate.' })
  validateMove(@Arg('input', () => ValidateInput) input: ValidateInput): ValidationResult {
    return validateMove(request('ValidateRequest', input));
  }
}

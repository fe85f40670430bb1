import { LongRules } from '../../src/engine/long/rules';
import { Evaluator } from '../../src/eval/evaluator';
import { LongSearch } from '../../src/eval/long/search';
import { searchSettings } from '../../src/eval/search-options';
import type { LongBot } from '../eval/long-match';
import { DEFAULT_NET, readLongNet } from './nets';
import { LongChooser } from '../../src/eval/neural/self-play';

/** Bots for paired matches; the self-play of training is src/eval/neural/self-play.ts. */
export { LongChooser, playTdGame } from '../../src/eval/neural/self-play';
export type { TdGame } from '../../src/eval/neural/self-play';

/** A bot for long-match.ts's paired games: an evaluator through `LongSearch.rankTurns` at `plies`. */
export function evaluatorBot(
  rules: Readonly<LongRules>,
  evaluator: Evaluator,
  plies: number,
  label: string,
): LongBot {
  // One stage per turn (doubles = standard): the 0-ply choice is exactly
  // the search's, without its second move generation.
  const chooser = plies === 0 && rules.doubles === 'standard' ? new LongChooser(rules, evaluator) : null;
  const search = new LongSearch(rules, evaluator);
  const settings = searchSettings(plies);
  return {
    name: `${label}@${plies}`,
    choose(state, dice, turns) {
      if (turns.length === 1) return 0;
      if (chooser) return chooser.best(state, turns);
      const ranked = search.rankTurns(state, dice, settings);
      if (!ranked.ok) throw new Error(ranked.error.message);
      const best = ranked.value[0].board;
      const k = turns.findIndex((t) => t.board.every((v, i) => v === best[i]));
      return k >= 0 ? k : 0;
    },
  };
}

/**
 * A committed long-family network (`data/nets/<name>`, default the service's
 * `long`) as a bot at `plies`, labelled `net` or by its name.
 */
export function longNetBot(rules: Readonly<LongRules>, plies: number, name?: string): LongBot {
  return evaluatorBot(rules, readLongNet(rules, name ?? DEFAULT_NET.long), plies, name ?? 'net');
}

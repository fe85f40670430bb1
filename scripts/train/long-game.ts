import { LongRules } from '../../src/engine/long/rules';
import { LongBot, evaluatorBot } from '../../src/eval/long/self-play';
import { DEFAULT_NET, readLongNet } from './nets';

/** Bots for paired matches; the self-play of training is src/eval/neural/self-play.ts. */
export { LongChooser, playTdGame } from '../../src/eval/neural/self-play';
export type { TdGame } from '../../src/eval/neural/self-play';

/**
 * A committed long-family network (`data/nets/<name>`, default the service's
 * `long`) as a bot at `plies`, labelled `net` or by its name.
 */
export function longNetBot(rules: Readonly<LongRules>, plies: number, name?: string): LongBot {
  return evaluatorBot(rules, readLongNet(rules, name ?? DEFAULT_NET.long), plies, name ?? 'net');
}

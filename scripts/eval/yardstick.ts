import { LONG_PRESETS } from '../../src/engine/long/rules';
import { NeuralEvaluator } from '../../src/eval/neural/evaluator';
import { readLongNet, readShortNet } from '../train/nets';
import { MUTATIONS, mutatedNet } from '../../test/support/net-mutations';
import { COMMITTED_NETS, bearoffAgreement, boardOf, longSmokeMatch, shortSmokeMatch, valuesFor } from '../../src/eval/neural/net-checks';
import { readBearoffPositions } from '../../src/service/analysis/data';
import { numberOption } from './options';

/**
 * The yardstick of test/eval/neural/yardstick.test.ts on every committed
 * network and on its broken copies (test/support/net-mutations.ts): agreement with the
 * exact bear-off answers on data/benchmarks/bearoff-positions.json and a
 * seeded smoke match against the pip-count greedy bot (backgammon: the
 * primer). The test's
 * thresholds were set from this table.
 *
 *   npx tsx scripts/eval/yardstick.ts [--games 40] [--seed 1] [--nets long,fevga] [--variants committed,bias,shuffled,untrained,random,swapped]
 */

function listOption(name: string, fallback: string[]): string[] {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1].split(',') : fallback;
}

function main(): void {
  const games = numberOption('games', 40);
  const seed = numberOption('seed', 1);
  const { positions } = readBearoffPositions();
  console.log('| network | weights | rank correlation | mean equity error | ppg vs greedy, backgammon vs primer (games) | match s |');
  console.log('|---|---|---|---|---|---|');
  const nets = listOption('nets', Object.keys(COMMITTED_NETS));
  const kinds = listOption('variants', ['committed', ...MUTATIONS]);
  for (const name of nets) {
    const preset = COMMITTED_NETS[name];
    const rules = preset ? LONG_PRESETS[preset] : undefined;
    const variants: [string, NeuralEvaluator][] = [];
    if (kinds.includes('committed')) variants.push(['committed', rules ? readLongNet(rules, name) : readShortNet()]);
    for (const m of MUTATIONS) if (kinds.includes(m)) variants.push([m, mutatedNet(name, m, rules)]);
    for (const [label, net] of variants) {
      const a = bearoffAgreement(net, positions[name].map(boardOf), valuesFor(net, rules));
      const started = Date.now();
      const s = rules ? longSmokeMatch(rules, net, games, seed) : shortSmokeMatch(net, games, seed);
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `| ${name} | ${label} | ${a.rankCorrelation.toFixed(3)} | ${a.meanError.toFixed(3)} | ${s.ppg >= 0 ? '+' : ''}${s.ppg.toFixed(3)} ± ${s.stderrPairs.toFixed(3)} (${s.games}) | ${seconds.toFixed(1)} |`,
      );
    }
  }
}

main();

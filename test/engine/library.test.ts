import { execFileSync } from 'child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';

/*
 * The rules core as a library (packages/rules): it compiles on its own, its
 * compiled code requires nothing but itself and Node built-ins, and a
 * consumer can use it with only the package's own files.
 */

const ROOT = resolve(__dirname, '../..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe('@nardy/rules library', () => {
  const out = mkdtempSync(join(tmpdir(), 'nardy-rules-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('compiles alone, requires no other package, and plays a move for a consumer', () => {
    const dist = join(out, 'node_modules/@nardy/rules/dist');
    // The package's own build (its prepack), into this folder.
    execFileSync(process.execPath, [join(ROOT, 'packages/build.mjs'), '../../src/engine/index.ts', '--out', dist], { cwd: join(ROOT, 'packages/rules'), stdio: 'pipe' });
    writeFileSync(join(out, 'node_modules/@nardy/rules/package.json'), readFileSync(join(ROOT, 'packages/rules/package.json')));
    const requires = new Set<string>();
    for (const file of files(dist).filter((f) => /\.[cm]?js$/.test(f))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/require\("([^"]+)"\)|from\s*"([^"]+)"/g)) requires.add(m[1] ?? m[2]);
    }
    expect([...requires].filter((r) => !r.startsWith('.'))).toEqual([]);
    expect(files(dist).some((f) => f.endsWith('index.d.ts'))).toBe(true);

    writeFileSync(
      join(out, 'consumer.js'),
      `const rules = require('@nardy/rules');
       const long = rules.parseLongPosition({ turn: 'white', white: { points: { 24: 15 } }, black: { points: { 24: 15 } } }, 'head15');
       const turns = rules.legalLongTurns(rules.LONG_PRESETS.long, { position: long.value, pending: [] }, [6, 5]);
       const bg = rules.parseShortPosition({ turn: 'white', white: { points: { 24: 2, 13: 5, 8: 3, 6: 5 } }, black: { points: { 24: 2, 13: 5, 8: 3, 6: 5 } } });
       const bgTurns = rules.legalShortTurns(rules.SHORT_PRESETS.backgammon, bg.value, [3, 1]);
       const game = rules.createGameState({ variant: 'backgammon' });
       const opened = rules.applyAction(game.value.state, 'black', { type: 'roll-off', dice: [3, 1] });
       const play = rules.expectedPlay(opened.value.state).value;
       const played = rules.applyAction(opened.value.state, 'white', { type: 'play', play: { notation: '8/5 6/5' } });
       const outOfTurn = rules.applyAction(played.value.state, 'white', { type: 'roll', dice: [1, 2] });
       console.log(JSON.stringify([turns.value.turns.length, bgTurns.value.turns.length, rules.makeGnubgPositionId(bg.value),
         play.turns.length, played.value.expects, outOfTurn.error.code]));`,
    );
    const printed = execFileSync(process.execPath, [join(out, 'consumer.js')], { cwd: out, encoding: 'utf8' });
    expect(JSON.parse(printed)).toEqual([1, 16, '4HPwATDgc/ABMA', 16, { seat: 'black', action: 'roll' }, 'NOT_YOUR_TURN']);
  });
});

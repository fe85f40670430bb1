import { drawDiagram, longDiagram, shortDiagram } from '../src/diagram';
import { playLongGame } from '../src/engine/long/game';
import { LONG_PRESETS } from '../src/engine/long/rules';
import { LongState } from '../src/engine/long/turn';
import { SeededRandom } from '../src/engine/random';
import { initialShortPosition } from '../src/engine/short/position';
import { rasterisePng } from '../src/service/diagram-png';

/**
 * Board diagram benchmarks: the time to draw one SVG (the pure drawing) and
 * to rasterise it to PNG at three widths, on positions of a seeded
 * crazy-nardy game and the backgammon opening.
 *
 *   npm run bench:diagram
 *
 * Benchmarks measure; they never pass or fail.
 */
function time(label: string, runs: number, work: (i: number) => void): void {
  work(0);
  const started = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) work(i);
  const ms = Number(process.hrtime.bigint() - started) / 1e6 / runs;
  console.log(`${label.padEnd(44)} ${ms.toFixed(3).padStart(9)} ms  (${runs} runs)`);
}

const states: LongState[] = [];
playLongGame(LONG_PRESETS.crazy, new SeededRandom(11), (step) => {
  if (states.length < 200) states.push(step.chosen.state);
});
const longSvgs = states.map((s) => drawDiagram(longDiagram(s, { title: 'Crazy nardy', dice: [3, 1] }), { viewer: 'white', width: 600, theme: 'light', labels: 'white' }));
const short = shortDiagram(initialShortPosition('white'), { title: 'Backgammon', dice: [3, 1], cube: { value: 1, owner: null } });

console.log(`node ${process.version}, ${states.length} crazy-nardy positions`);
time('SVG, long family (600 px)', 2000, (i) => {
  drawDiagram(longDiagram(states[i % states.length], { title: 'Crazy nardy', dice: [3, 1] }), { viewer: 'white', width: 600, theme: 'light', labels: 'white' });
});
time('SVG, backgammon (600 px)', 2000, () => {
  drawDiagram(short, { viewer: 'white', width: 600, theme: 'dark', labels: 'white' });
});
for (const width of [300, 600, 1200]) {
  time(`PNG from SVG, long family (${width} px)`, width > 600 ? 20 : 50, (i) => {
    rasterisePng(longSvgs[i % longSvgs.length], width);
  });
}
console.log(`SVG size: ${Math.round(longSvgs.reduce((a, s) => a + s.length, 0) / longSvgs.length)} bytes on average; PNG at 600 px: ${rasterisePng(longSvgs[0], 600).length} bytes`);

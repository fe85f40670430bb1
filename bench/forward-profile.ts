import { CLASSIC } from '../src/engine/long/rules';
import { newLongGame, needsDice, winnerOf } from '../src/engine/long/game';
import { legalLongTurns } from '../src/engine/long/turn';
import { SeededRandom } from '../src/engine/random';
import { initialShortPosition } from '../src/engine/short/position';
import { SHORT_STANDARD } from '../src/engine/short/rules';
import { legalShortTurns } from '../src/engine/short/turn';
import { net } from './nets';
import { referenceForward, sparseInput } from '../src/eval/neural/network';
import { isLongRace, isShortRace } from '../src/eval/race';

/**
 * Where the time of one network evaluation goes (encoding, first layer,
 * output layer), and how many inputs are active, on contact positions of
 * seeded random games; the forward pass on each kernel (network.ts
 * `kernel`: the JavaScript loops and the WebAssembly SIMD kernel). For a CPU profile:
 *
 *   npx tsx bench/forward-profile.ts
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof -r tsx/cjs bench/forward-profile.ts
 */
function shortBoards(count: number): Int8Array[] {
  const random = new SeededRandom(17);
  const out: Int8Array[] = [];
  let position = initialShortPosition('white');
  while (out.length < count) {
    if (!isShortRace(position.board)) out.push(position.board);
    const answer = legalShortTurns(SHORT_STANDARD, position, random.dice());
    if (!answer.ok) throw new Error(answer.error.message);
    const turn = random.pick(answer.value.turns);
    position = turn.gameOver || isShortRace(turn.position.board) ? initialShortPosition('white') : turn.position;
  }
  return out;
}

function longBoards(count: number): Int8Array[] {
  const random = new SeededRandom(19);
  const out: Int8Array[] = [];
  let state = newLongGame(CLASSIC, 'white');
  while (out.length < count) {
    if (winnerOf(state)) state = newLongGame(CLASSIC, 'white');
    const dice = random.dice();
    if (state.pending.length === 0 && !isLongRace(state.position.board)) out.push(state.position.board);
    const answer = legalLongTurns(CLASSIC, state, needsDice(state) ? dice : undefined);
    if (!answer.ok) throw new Error(answer.error.message);
    state = random.pick(answer.value.turns).state;
  }
  return out;
}

/** The positions after each legal turn of one roll, for a few hundred rolls: what a search evaluates in a row. */
function shortSiblings(count: number): Int8Array[] {
  const random = new SeededRandom(23);
  const out: Int8Array[] = [];
  let position = initialShortPosition('white');
  while (out.length < count) {
    const answer = legalShortTurns(SHORT_STANDARD, position, random.dice());
    if (!answer.ok) throw new Error(answer.error.message);
    for (const t of answer.value.turns) if (!t.gameOver && !isShortRace(t.position.board)) out.push(t.position.board);
    const turn = random.pick(answer.value.turns);
    position = turn.gameOver || isShortRace(turn.position.board) ? initialShortPosition('white') : turn.position;
  }
  return out;
}

function longSiblings(count: number): Int8Array[] {
  const random = new SeededRandom(29);
  const out: Int8Array[] = [];
  let state = newLongGame(CLASSIC, 'white');
  while (out.length < count) {
    if (winnerOf(state)) state = newLongGame(CLASSIC, 'white');
    const answer = legalLongTurns(CLASSIC, state, needsDice(state) ? random.dice() : undefined);
    if (!answer.ok) throw new Error(answer.error.message);
    for (const t of answer.value.turns)
      if (t.state.pending.length === 0 && !winnerOf(t.state) && !isLongRace(t.state.position.board))
        out.push(t.state.position.board);
    state = random.pick(answer.value.turns).state;
  }
  return out;
}

function perCall(label: string, n: number, f: () => void): void {
  f();
  const t0 = process.hrtime.bigint();
  let calls = 0;
  let elapsed = 0;
  while (elapsed < 1500) {
    f();
    calls += n;
    elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
  }
  console.log(`  ${label.padEnd(52)} ${((elapsed * 1000) / calls).toFixed(2)} µs`);
}

for (const [name, boards, siblings] of [
  ['backgammon', shortBoards(400), shortSiblings(2000)],
  ['long', longBoards(400), longSiblings(2000)],
] as const) {
  const e = net(name);
  const inputs = boards.map((b) => {
    const input = sparseInput(e.encoding.inputs);
    e.encoding.encode(b, input);
    return input;
  });
  const active = inputs.reduce((s, i) => s + i.count, 0) / inputs.length;
  const unit = inputs.reduce((s, i) => s + Array.from(i.value.subarray(0, i.count)).filter((v) => v === 1).length, 0) / inputs.length;
  console.log(`${name}: ${e.contact.inputs} × ${e.contact.hidden}; ${active.toFixed(1)} active inputs (${unit.toFixed(1)} of them 1)`);
  const scratch = sparseInput(e.encoding.inputs);
  const out = new Float64Array(5);
  perCall('encode', boards.length, () => {
    for (const b of boards) e.encoding.encode(b, scratch);
  });
  perCall('reference forward (pre-encoded)', inputs.length, () => {
    for (const i of inputs) referenceForward(e.contact, i, out, 0);
  });
  for (const kernel of ['js', 'wasm'] as const) {
    e.contact.kernel = kernel;
    perCall(`forward (pre-encoded), ${kernel}`, inputs.length, () => {
      for (const i of inputs) e.contact.forward(i, out, 0);
    });
    e.contact.incremental = false;
    perCall(`forward, full sums, ${kernel}`, inputs.length, () => {
      for (const i of inputs) e.contact.forward(i, out, 0);
    });
    e.contact.incremental = true;
    perCall(`evaluateInto, ${kernel}`, boards.length, () => {
      for (const b of boards) e.evaluateInto(b, out, 0);
    });
    perCall(`evaluateInto, plays of one roll in a row, ${kernel}`, siblings.length, () => {
      for (const b of siblings) e.evaluateInto(b, out, 0);
    });
  }
  const rows0 = e.contact.rowsApplied;
  let calls = 0;
  perCall('evaluateInto, plays of one roll (rows counted)', siblings.length, () => {
    for (const b of siblings) e.evaluateInto(b, out, 0);
    calls += siblings.length;
  });
  console.log(`  rows per evaluation, plays in a row: ${((e.contact.rowsApplied - rows0) / calls).toFixed(1)}`);
}

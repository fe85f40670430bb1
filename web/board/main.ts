/*
 * The analysis board: a page that talks only to the public API of this
 * service (GET /v1/variants, GET /v1/diagram, POST /v1/moves,
 * /v1/moves/validate, /v1/moves/best, /v1/evaluate). Every rule decision
 * comes from the API; the page bundles only the rules core's pure ID
 * readers and writers (gnubg IDs, XGID) so that a pasted backgammon ID
 * becomes the JSON position the API takes, a backgammon position with its
 * side on roll can be drawn (an XGID carries the turn; a bare gnubg Position
 * ID does not), and the opening of each variant has its position ID.
 */
import { newLongGame } from '../../src/engine/long/game';
import { makeLongPositionId } from '../../src/engine/long/position-id';
import { LONG_PRESETS, LongPresetName } from '../../src/engine/long/rules';
import { parseGnubgPositionId, parseMatchId } from '../../src/engine/short/gnubg-id';
import { initialShortPosition, makeShortPositionJson, parseShortPosition, ShortPositionJson } from '../../src/engine/short/position';
import { makeXgid, parseXgid } from '../../src/engine/short/xgid';

type Side = 'white' | 'black';
type Family = 'long' | 'short';

interface Step {
  from: number;
  to: number;
}

interface VariantView {
  name: string;
  family: Family;
  title: string;
}

interface ShortExtras {
  cube: { value: number; owner: Side | null };
  match: { length: number; score: { white: number; black: number }; crawford: boolean };
}

/** One position on the board: long nardy by its position ID, backgammon as JSON with cube and score. */
interface Current {
  variant: string;
  family: Family;
  positionId?: string;
  short?: { position: ShortPositionJson } & ShortExtras;
  dice: [number, number] | null;
}

interface ApiError {
  code: string;
  message: string;
  field?: string;
  rule?: string;
}

type ApiAnswer<T> = { ok: true; value: T } | { ok: false; status: number; error: ApiError };

interface StageView {
  actor: Side;
  origin: string;
  units: number[];
}

interface TurnView {
  steps: Step[];
  notation: string;
  position: unknown;
  positionId: string;
  next: { kind: string; actor: Side | null; winner?: Side };
}

const $ = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing`);
  return element as T;
};

const SIDE_NAME: Record<Side, string> = { white: 'White', black: 'Black' };

let variants: VariantView[] = [];
let current: Current = { variant: 'long', family: 'long', positionId: 'GAAA8_fAAAg__DA', dice: null };
let history: Current[] = [];
let steps: Step[] = [];
let selected: number | null = null;
let viewer: Side = 'white';
let mover: Side = 'white';
let stageUnits: number[] | null = null;
/** Bumped on every change: answers of older requests are dropped. */
let generation = 0;

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer<T>> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.ok) return { ok: true, value: (await response.json()) as T };
  let error: ApiError = { code: 'HTTP_' + response.status, message: response.statusText };
  try {
    error = ((await response.json()) as { error: ApiError }).error;
  } catch {
    // Not a JSON error body: keep the status line.
  }
  return { ok: false, status: response.status, error };
}

function family(variant: string): Family {
  return variants.find((v) => v.name === variant)?.family ?? 'long';
}

/** The position fields of every POST request. */
function positionBody(c: Current): Record<string, unknown> {
  if (c.family === 'long') return { variant: c.variant, positionId: c.positionId };
  return { variant: c.variant, position: c.short?.position };
}

/**
 * Does the side to move roll now? Backgammon always; a long-family stage
 * only when its position ID names no pending cascade (`.c…`) or debt
 * (`.d…`) stage, whose units are known (TM-7, docs/position-id.md).
 */
function needsDice(c: Current): boolean {
  return c.family === 'short' || !/\.[cd]\d/.test(c.positionId ?? '');
}

/** COM-5: the same point in the other side's numbering. */
function otherPoint(f: Family, p: number): number {
  if (f === 'short') return 25 - p;
  return p <= 12 ? p + 12 : p - 12;
}

function pointName(p: number): string {
  if (p === 0) return 'off';
  if (p === 25) return 'bar';
  return String(p);
}

function notationOf(list: readonly Step[]): string {
  return list.map((s) => `${pointName(s.from)}/${pointName(s.to)}`).join(' ');
}

function xgidOf(c: Current): string | null {
  if (!c.short) return null;
  const position = parseShortPosition(c.short.position);
  if (!position.ok) return null;
  return makeXgid({
    position: position.value,
    cubeValue: c.short.cube.value,
    cubeOwner: c.short.cube.owner,
    dice: null,
    cubeAction: 'none',
    score: c.short.match.score,
    crawford: c.short.match.crawford,
    jacoby: false,
    beaver: false,
    matchLength: c.short.match.length,
    maxCubeLog2: 10,
  });
}

/**
 * The side whose numbering the drawn labels show: the side to move (the
 * drawing's `data-turn`), so the labels are the numbers that the messages,
 * the listed plays and the step form use (COM-2: each side numbers its own).
 */
let labelSide: Side = 'white';

function diagramUrl(c: Current, move: string): string {
  const query = new URLSearchParams({ variant: c.variant, orientation: viewer, labels: labelSide, size: '900' });
  if (c.family === 'long' && c.positionId) query.set('positionId', c.positionId);
  const xgid = xgidOf(c);
  if (xgid) query.set('xgid', xgid);
  if (c.dice) query.set('dice', `${c.dice[0]},${c.dice[1]}`);
  if (move) query.set('move', move);
  return `/v1/diagram?${query.toString()}`;
}

function say(id: string, text: string, cls = ''): void {
  const element = $(id);
  element.textContent = text;
  element.className = cls;
}

function errorText(error: ApiError): string {
  return `${error.message}${error.rule ? ` (rule ${error.rule})` : ''} [${error.code}]`;
}

// ---------------------------------------------------------------- drawing

async function drawBoard(): Promise<void> {
  const mine = generation;
  const response = await fetch(diagramUrl(current, notationOf(steps)));
  if (mine !== generation) return;
  const figure = $('board');
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: ApiError } | null;
    figure.textContent = body?.error ? `The board cannot be drawn: ${errorText(body.error)}` : 'The board cannot be drawn.';
    return;
  }
  const svg = new DOMParser().parseFromString(await response.text(), 'image/svg+xml').documentElement;
  const turn = svg.getAttribute('data-turn');
  if ((turn === 'white' || turn === 'black') && turn !== labelSide) {
    // Drawn in the other side's numbering: draw again in the mover's.
    labelSide = turn;
    return drawBoard();
  }
  figure.replaceChildren(document.importNode(svg, true));
  $('board-text').textContent = svg.querySelector('desc')?.textContent ?? '';
  if (selected !== null) markSelected(selected);
}

function markSelected(p: number): void {
  const svg = $('board').querySelector('svg');
  if (!svg) return;
  svg.querySelectorAll('.selected').forEach((e) => e.classList.remove('selected'));
  // Only a point 1..24 is outlined; the bar, off and "nothing selected" (-1) only clear.
  if (p < 1 || p > 24) return;
  const v = viewer === mover ? p : otherPoint(current.family, p);
  svg.querySelectorAll(`[data-viewer-point="${v}"]`).forEach((e) => {
    if (e.classList.contains('stack') || e.classList.contains('point')) e.classList.add('selected');
  });
}

/** The mover's own point under a click on the drawing, or null. */
function pointAt(target: EventTarget | null): number | null {
  if (!(target instanceof Element)) return null;
  const targeted = target.closest('[data-target]');
  if (targeted) return targeted.getAttribute('data-target') === 'bar' ? 25 : 0;
  const pointed = target.closest('[data-viewer-point]');
  if (!pointed) return null;
  const v = Number(pointed.getAttribute('data-viewer-point'));
  return viewer === mover ? v : otherPoint(current.family, v);
}

// ---------------------------------------------------------------- analysis panels

function playButton(turn: TurnView, label: string): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = label;
  button.setAttribute('aria-label', `Play ${turn.notation || 'no move'}`);
  button.addEventListener('click', () => advance(turn));
  return button;
}

async function showMoves(): Promise<void> {
  const mine = generation;
  if (!current.dice && needsDice(current)) {
    stageUnits = null;
    say('stage', 'Roll or set the dice to play.');
    $('legal-body').textContent = 'Set the dice to list the plays.';
    $('best-body').textContent = 'Set the dice to rank the plays.';
    return;
  }
  const body = { ...positionBody(current), ...(current.dice ? { dice: current.dice } : {}) };
  const answer = await call<{ stage: StageView; count: number; turns: TurnView[] }>('POST', '/v1/moves', body);
  if (mine !== generation) return;
  const legal = $('legal-body');
  if (!answer.ok) {
    stageUnits = null;
    if (answer.error.code === 'INVALID_DICE' && !current.dice) {
      say('stage', 'Roll or set the dice to play.');
      legal.textContent = 'Set the dice to list the plays.';
    } else {
      say('stage', errorText(answer.error), 'error');
      legal.textContent = '';
    }
    return;
  }
  const { stage, turns } = answer.value;
  mover = stage.actor;
  stageUnits = stage.units;
  fillStepForm();
  const known = stage.origin === 'cascade' || stage.origin === 'debt';
  say('stage', `${SIDE_NAME[stage.actor]} to play ${stage.units.join('-')}${known ? ` (${stage.origin} stage: no dice are rolled)` : ''}.`);
  const list = document.createElement('div');
  list.className = 'plays';
  list.setAttribute('role', 'list');
  for (const turn of turns) {
    const item = playButton(turn, turn.notation || '(no move)');
    item.setAttribute('role', 'listitem');
    list.appendChild(item);
  }
  const count = document.createElement('p');
  count.textContent = `${turns.length} legal play${turns.length === 1 ? '' : 's'}:`;
  legal.replaceChildren(count, list);
  void showBest(known);
}

async function showBest(known: boolean): Promise<void> {
  const mine = generation;
  const target = $('best-body');
  if (!current.dice && !known) {
    target.textContent = 'Set the dice to rank the plays.';
    return;
  }
  target.textContent = 'Ranking…';
  const body = { ...positionBody(current), ...(current.dice ? { dice: current.dice } : {}), limit: 5 };
  const answer = await call<{ count: number; turns: (TurnView & { rank: number; equity: number; equityDiff: number })[] }>('POST', '/v1/moves/best', body);
  if (mine !== generation) return;
  if (!answer.ok) {
    target.textContent = errorText(answer.error);
    return;
  }
  const table = document.createElement('table');
  table.innerHTML = '<caption class="sr-only">Best plays, ranked by equity</caption><thead><tr><th scope="col">#</th><th scope="col">Play</th><th scope="col">Equity</th><th scope="col">Loss</th></tr></thead>';
  const rows = document.createElement('tbody');
  for (const turn of answer.value.turns) {
    const row = document.createElement('tr');
    const cells = [String(turn.rank), '', turn.equity.toFixed(3), turn.equityDiff.toFixed(3)];
    cells.forEach((text, i) => {
      const cell = document.createElement('td');
      if (i === 1) cell.appendChild(playButton(turn, turn.notation || '(no move)'));
      else cell.textContent = text;
      if (i >= 2) cell.className = 'num';
      row.appendChild(cell);
    });
    rows.appendChild(row);
  }
  table.appendChild(rows);
  target.replaceChildren(table);
}

interface Evaluation {
  sideToMove: Side;
  probabilities: Record<string, number>;
  equity: { cubeless: number; cubeful?: number };
  pips: Record<Side, number>;
  cubeDecision?: { action: string; response: string };
  evaluator: { name: string; plies: number };
}

async function showEvaluation(): Promise<void> {
  const mine = generation;
  const target = $('evaluation-body');
  target.textContent = 'Evaluating…';
  const cube = current.family === 'short' && current.short ? { value: current.short.cube.value, owner: current.short.cube.owner ?? 'center' } : { value: 1, owner: 'center' };
  let answer = await call<Evaluation>('POST', '/v1/evaluate', { ...positionBody(current), cube });
  // Variants without the cube (CUBE-7) and cascade or debt stages (CUBE-2) are evaluated cubeless.
  if (!answer.ok && ['CUBE_DISABLED', 'STAGE_MISMATCH', 'INVALID_CUBE'].includes(answer.error.code)) {
    answer = await call<Evaluation>('POST', '/v1/evaluate', positionBody(current));
  }
  if (mine !== generation) return;
  if (!answer.ok) {
    target.textContent = errorText(answer.error);
    return;
  }
  const e = answer.value;
  const p = e.probabilities;
  const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
  const rows: [string, string][] = [
    ['Side to move', SIDE_NAME[e.sideToMove]],
    ['Win', percent(p.win)],
    ['Win mars (gammon)', percent(p.winMars)],
    ['Win koks (backgammon)', percent(p.winKoks)],
    ['Lose mars (gammon)', percent(p.loseMars)],
    ['Lose koks (backgammon)', percent(p.loseKoks)],
    ['Cubeless equity', e.equity.cubeless.toFixed(3)],
  ];
  if (e.equity.cubeful !== undefined) rows.push(['Cubeful equity', e.equity.cubeful.toFixed(3)]);
  if (e.cubeDecision) rows.push(['Cube decision', `${e.cubeDecision.action}, ${e.cubeDecision.response}`]);
  rows.push(['Pips', `White ${e.pips.white} · Black ${e.pips.black}`]);
  rows.push(['Evaluator', `${e.evaluator.name}, ${e.evaluator.plies} ply`]);
  const table = document.createElement('table');
  for (const [name, value] of rows) {
    const row = document.createElement('tr');
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = name;
    const td = document.createElement('td');
    td.textContent = value;
    td.className = 'num';
    row.append(th, td);
    table.appendChild(row);
  }
  target.replaceChildren(table);
}

// ---------------------------------------------------------------- moving

function fillStepForm(): void {
  const points = [25, ...Array.from({ length: 24 }, (_, i) => 24 - i), 0].filter((p) => current.family === 'short' || (p !== 25));
  for (const [id, list] of [
    ['step-from', points.filter((p) => p !== 0)],
    ['step-to', points.filter((p) => p !== 25)],
  ] as const) {
    const select = $<HTMLSelectElement>(id);
    const keep = select.value;
    select.replaceChildren(
      ...list.map((p) => {
        const option = document.createElement('option');
        option.value = String(p);
        option.textContent = pointName(p);
        return option;
      }),
    );
    if (keep) select.value = keep;
  }
}

function showSteps(): void {
  $('steps').textContent = steps.length > 0 ? `Steps so far: ${notationOf(steps)}` : '';
}

async function tryStep(step: Step): Promise<void> {
  const candidate = [...steps, step];
  const body = { ...positionBody(current), ...(current.dice ? { dice: current.dice } : {}), steps: candidate };
  const answer = await call<{ legal: boolean; complete?: boolean; remainingDice?: number[]; error?: ApiError } & Partial<TurnView>>('POST', '/v1/moves/validate', body);
  if (!answer.ok) {
    say('feedback', `Cannot check the step: ${errorText(answer.error)}`, 'illegal');
    return;
  }
  const v = answer.value;
  if (!v.legal) {
    const e = v.error as ApiError;
    say('feedback', `Illegal step ${notationOf([step])}: ${e.message}${e.rule ? ` (rule ${e.rule})` : ''} [${e.code}]`, 'illegal');
    return;
  }
  if (v.complete) {
    say('feedback', `Played ${v.notation || notationOf(candidate)}.`, 'legal');
    advance(v as TurnView);
    return;
  }
  steps = candidate;
  showSteps();
  say('feedback', `Legal so far; still to play: ${(v.remainingDice ?? []).join(', ')}.`, 'legal');
  generation++;
  void drawBoard();
}

/** Moves on to the position after a legal play (the previous one is kept for Back). */
function advance(turn: TurnView): void {
  history.push(current);
  const next: Current = { variant: current.variant, family: current.family, dice: null };
  if (current.family === 'long') next.positionId = turn.positionId;
  else if (current.short) next.short = { ...current.short, position: turn.position as ShortPositionJson };
  if (turn.next.kind === 'gameOver') say('feedback', `Played ${turn.notation}. ${turn.next.winner ? SIDE_NAME[turn.next.winner] : 'Nobody'} wins.`, 'legal');
  else if (!$('feedback').textContent?.startsWith('Played')) say('feedback', `Played ${turn.notation || '(no move)'}.`, 'legal');
  show(next, false);
}

async function onBoardClick(event: MouseEvent): Promise<void> {
  const p = pointAt(event.target);
  if (p === null) return;
  if (!current.dice && stageUnits === null) {
    say('feedback', 'Set or roll the dice first.', 'illegal');
    return;
  }
  if (selected === null) {
    if (p === 0) return;
    selected = p;
    markSelected(p);
    say('feedback', `From ${pointName(p)}: now choose where to.`);
    return;
  }
  const from = selected;
  selected = null;
  markSelected(-1);
  if (from === p) {
    say('feedback', 'Selection cleared.');
    return;
  }
  await tryStep({ from, to: p });
}

// ---------------------------------------------------------------- loading

/** Reads what was pasted: a long position ID, a gnubg Position ID (with `:MatchID`) or an XGID. */
function readPasted(text: string, variant: string): Current | string {
  const f = family(variant);
  const trimmed = text.trim();
  if (f === 'long') {
    if (/^XGID=|:/.test(trimmed)) return 'XGIDs and gnubg IDs describe backgammon positions; choose backgammon';
    return { variant, family: f, positionId: trimmed, dice: null };
  }
  if (trimmed.startsWith('XGID=') || trimmed.split(':').length === 10) {
    const x = parseXgid(trimmed);
    if (!x.ok) return x.error.message;
    const xgid = x.value;
    return {
      variant,
      family: f,
      short: {
        position: makeShortPositionJson(xgid.position) as ShortPositionJson,
        cube: { value: xgid.cubeValue, owner: xgid.cubeOwner },
        match: { length: xgid.matchLength, score: xgid.score, crawford: xgid.crawford },
      },
      dice: xgid.dice ? [xgid.dice[0], xgid.dice[1]] : null,
    };
  }
  const [positionPart, matchPart] = trimmed.split(':');
  let turn: Side = 'white';
  let extras: ShortExtras = { cube: { value: 1, owner: null }, match: { length: 0, score: { white: 0, black: 0 }, crawford: false } };
  let dice: [number, number] | null = null;
  if (matchPart) {
    const m = parseMatchId(matchPart);
    if (!m.ok) return m.error.message;
    turn = m.value.turn;
    extras = { cube: { value: m.value.cubeValue, owner: m.value.cubeOwner }, match: { length: m.value.matchLength, score: m.value.score, crawford: m.value.crawford } };
    if (m.value.dice) dice = [m.value.dice[0], m.value.dice[1]];
  }
  const p = parseGnubgPositionId(positionPart, turn);
  if (!p.ok) return p.error.message;
  return { variant, family: f, short: { position: makeShortPositionJson(p.value) as ShortPositionJson, ...extras }, dice };
}

/** The opening of a variant with White to move (LN-INIT-1, KH-1, SH-INIT-1), written by the core's ID writers. */
function opening(variant: string): void {
  const f = family(variant);
  if (f === 'long') {
    const rules = LONG_PRESETS[variant as LongPresetName];
    if (!rules) return;
    show({ variant, family: f, positionId: makeLongPositionId(newLongGame(rules, 'white')), dice: null }, true);
    return;
  }
  show(
    {
      variant,
      family: f,
      short: {
        position: makeShortPositionJson(initialShortPosition('white')) as ShortPositionJson,
        cube: { value: 1, owner: null },
        match: { length: 0, score: { white: 0, black: 0 }, crawford: false },
      },
      dice: null,
    },
    true,
  );
}

/** Shows a position: the board, the legal plays, the best plays and the evaluation. */
function show(next: Current, fresh: boolean): void {
  if (fresh) history = [];
  current = next;
  steps = [];
  selected = null;
  stageUnits = null;
  generation++;
  $<HTMLSelectElement>('variant').value = current.variant;
  $<HTMLSelectElement>('die1').value = current.dice ? String(current.dice[0]) : '';
  $<HTMLSelectElement>('die2').value = current.dice ? String(current.dice[1]) : '';
  $('current-id').textContent = current.family === 'long' ? (current.positionId ?? '') : (xgidOf(current) ?? '');
  showSteps();
  fillStepForm();
  void drawBoard();
  void showMoves();
  void showEvaluation();
}

/** New dice for the same position (any steps so far are dropped). */
function setDice(dice: [number, number] | null): void {
  const keep = history;
  show({ ...current, dice }, false);
  history = keep;
}

async function start(): Promise<void> {
  const answer = await call<{ variants: VariantView[] }>('GET', '/v1/variants');
  if (!answer.ok) {
    say('feedback', `The service did not list its variants: ${errorText(answer.error)}`, 'illegal');
    return;
  }
  variants = answer.value.variants;
  const select = $<HTMLSelectElement>('variant');
  select.replaceChildren(
    ...variants.map((v) => {
      const option = document.createElement('option');
      option.value = v.name;
      option.textContent = `${v.title} (${v.name})`;
      return option;
    }),
  );
  select.addEventListener('change', () => opening(select.value));
  $('opening').addEventListener('click', () => opening(select.value));
  $('setup-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const pasted = readPasted($<HTMLInputElement>('position-id').value, select.value);
    if (typeof pasted === 'string') {
      say('feedback', `Cannot read the ID: ${pasted}`, 'illegal');
      return;
    }
    say('feedback', '');
    show(pasted, true);
  });
  $('dice-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const a = Number($<HTMLSelectElement>('die1').value);
    const b = Number($<HTMLSelectElement>('die2').value);
    if (!a || !b) {
      say('feedback', 'Choose both dice.', 'illegal');
      return;
    }
    setDice([a, b]);
  });
  $('roll').addEventListener('click', () => {
    const values = crypto.getRandomValues(new Uint32Array(2));
    setDice([1 + (values[0] % 6), 1 + (values[1] % 6)]);
  });
  $('flip').addEventListener('click', () => {
    viewer = viewer === 'white' ? 'black' : 'white';
    generation++;
    void drawBoard();
  });
  $('undo-step').addEventListener('click', () => {
    steps = steps.slice(0, -1);
    showSteps();
    generation++;
    void drawBoard();
  });
  $('clear-steps').addEventListener('click', () => {
    steps = [];
    showSteps();
    generation++;
    void drawBoard();
  });
  $('back').addEventListener('click', () => {
    const previous = history.pop();
    if (!previous) {
      say('feedback', 'This is the first position.');
      return;
    }
    const keep = history;
    show(previous, false);
    history = keep;
  });
  $('step-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void tryStep({ from: Number($<HTMLSelectElement>('step-from').value), to: Number($<HTMLSelectElement>('step-to').value) });
  });
  $('board').addEventListener('click', (event) => void onBoardClick(event));
  opening('long');
}

void start();

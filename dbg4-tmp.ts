import { cubeDecision } from './src/eval/cube/decision';
const P = (win: number, winMars = 0, loseMars = 0) => ({ win, winMars, winKoks: 0, loseMars, loseKoks: 0 });
for (const p of [P(0.5), P(0.7), P(0.75), P(0.8), P(0.85), P(0.9), P(0.9, 0.6), P(0.7,0.2,0.05)]) {
  const d = cubeDecision(p, { kind: 'money', value: 1, owner: 'centre', beaver: true });
  console.log(JSON.stringify(p), d.action, d.response, d.noDouble.toFixed(3), d.doubleTake.toFixed(3));
}
for (const sc of [[0,0],[3,5],[5,6],[6,5]] as const) {
  const d = cubeDecision(P(0.72, 0.1, 0.05), { kind: 'match', value: 1, owner: 'centre', length: 7, score: sc, crawford: false });
  console.log(sc, d.action, d.response, d.noDouble.toFixed(3), d.doubleTake.toFixed(3), JSON.stringify(d.matchWinningChances));
}

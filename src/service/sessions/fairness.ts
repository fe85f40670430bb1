import { createHash, createHmac, randomBytes } from 'crypto';

/**
 * Provably fair server dice by commit–reveal (docs/fairness.md):
 *
 * - each game draws a secret 32-byte seed from the operating system's
 *   cryptographic RNG and publishes `commitment = SHA-256(seed)` (hex) when
 *   the game starts;
 * - roll number i (0, 1, 2, … in the order the game uses them, roll-offs
 *   included) is `HMAC-SHA256(key = seed, message = "roll:" + i)`; its bytes
 *   are read in order, bytes ≥ 252 are skipped (so every face is exactly
 *   equally likely), and the first two accepted bytes give the dice as
 *   `byte mod 6 + 1`; in the unlikely case of fewer than two accepted bytes the
 *   message `"roll:" + i + ":" + k` (k = 1, 2, …) continues the stream;
 * - a roll-off uses one roll: White's die is the first value, Black's the second;
 * - the seed is revealed when the game ends, and anyone can recompute every roll.
 */
export type SeedSource = () => Buffer;

export const cryptoSeeds: SeedSource = () => randomBytes(32);

/** A deterministic seed source for tests and seeded self-play: seed i = SHA-256(label + i). */
export function deterministicSeeds(label: string): SeedSource {
  let n = 0;
  return () => createHash('sha256').update(`${label}:${n++}`).digest();
}

export function commitmentOf(seed: Buffer): string {
  return createHash('sha256').update(seed).digest('hex');
}

/** The dice of roll `index` of a game with this seed. */
export function rollAt(seed: Buffer, index: number): [number, number] {
  const dice: number[] = [];
  for (let k = 0; dice.length < 2; k++) {
    const message = k === 0 ? `roll:${index}` : `roll:${index}:${k}`;
    const bytes = createHmac('sha256', seed).update(message).digest();
    for (const b of bytes) {
      if (b >= 252) continue;
      dice.push((b % 6) + 1);
      if (dice.length === 2) break;
    }
  }
  return [dice[0], dice[1]];
}

import { readFileSync, writeFileSync } from 'fs';
import { resolve } from 'path';
import { parseMetXml } from './met-xml';

/**
 * Writes src/eval/cube/kazaross-xg2.ts, the match equity table gnubg 1.07
 * uses by default, from gnubg's own copy of it (the Debian package installs
 * /usr/share/gnubg/met/Kazaross-XG2.xml). The file's licence permits copying
 * with its notice, which the module keeps.
 *
 *   npx tsx scripts/eval/met-import.ts [/usr/share/gnubg/met/Kazaross-XG2.xml]
 */
function main(): void {
  const path = process.argv[2] ?? '/usr/share/gnubg/met/Kazaross-XG2.xml';
  const met = parseMetXml(readFileSync(path, 'utf8'));
  const n = met.pre.length;
  if (n !== 25 || met.pre.some((r) => r.length !== n) || met.post.length !== n) throw new Error(`${path}: expected 25 × 25 entries and a post-Crawford row of 25`);
  const row = (r: number[]) => `  [${r.join(', ')}],`;
  const out = [
    '/*',
    ` * ${met.name}: ${met.description}`,
    ' * Imported from gnubg 1.07\'s met/Kazaross-XG2.xml by scripts/eval/met-import.ts. Its notice:',
    ' *',
    ...met.notice.split('\n').map((l) => (l ? ` * ${l}` : ' *')),
    ' */',
    '',
    `export const KAZAROSS_XG2_NAME = ${JSON.stringify(met.name)};`,
    '',
    '/** Pre-Crawford table: [a − 1][b − 1] is the MWC of the player needing a against one needing b (1-away: the Crawford game). */',
    'export const KAZAROSS_XG2_PRE: readonly (readonly number[])[] = [',
    ...met.pre.map(row),
    '];',
    '',
    '/** Post-Crawford: [b − 1] is the MWC of the trailer needing b against the leader at 1-away. */',
    `export const KAZAROSS_XG2_POST: readonly number[] = [${met.post.join(', ')}];`,
    '',
  ].join('\n');
  writeFileSync(resolve(__dirname, '../../src/eval/cube/kazaross-xg2.ts'), out);
}

main();

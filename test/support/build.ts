import { execFileSync } from 'child_process';
import { resolve } from 'path';

/*
 * Jest global setup of the system tier: builds dist/ once, when a source is
 * newer than the last build (scripts/build/if-stale.mjs), so that tests start
 * `node dist/...` rather than compiling TypeScript in every process they start.
 */
export default async function build(): Promise<void> {
  const root = resolve(__dirname, '../..');
  execFileSync(process.execPath, [resolve(root, 'scripts/build/if-stale.mjs')], { cwd: root, stdio: 'inherit' });
}

// `npm test` runs this: the modules of src/ import one another without a cycle (type-only imports
// count too, they couple the modules as much), and no `as unknown as` cast is in src/.
//
//   node scripts/build/check-imports.mjs
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const ts = createRequire(import.meta.url)(join(root, 'node_modules/typescript'));
const src = join(root, 'src');

/** Every .ts file under `dir` (the kernel's AssemblyScript is not TypeScript of the service). */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(src, 'eval/neural/kernel') ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The file a relative import names, or null (a package, or a file outside src/). */
function resolveImport(from, name) {
  if (!name.startsWith('.')) return null;
  const base = resolve(dirname(from), name);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile() && candidate.startsWith(src)) return candidate;
  }
  return null;
}

const files = sources(src);
const edges = new Map(
  files.map((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    return [file, [...new Set(importedFiles.map((i) => resolveImport(file, i.fileName)).filter((f) => f !== null))]];
  }),
);

// Tarjan's strongly connected components: a component of more than one module is a cycle.
let index = 0;
const indexOf = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function connect(file) {
  indexOf.set(file, index);
  low.set(file, index++);
  stack.push(file);
  onStack.add(file);
  for (const next of edges.get(file) ?? []) {
    if (!indexOf.has(next)) {
      connect(next);
      low.set(file, Math.min(low.get(file), low.get(next)));
    } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), indexOf.get(next)));
  }
  if (low.get(file) === indexOf.get(file)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(relative(root, member));
    } while (member !== file);
    if (component.length > 1 || (edges.get(file) ?? []).includes(file)) cycles.push(component.sort());
  }
}
for (const file of files) if (!indexOf.has(file)) connect(file);

const casts = files.flatMap((file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => (/\bas unknown as\b/.test(line) ? [`${relative(root, file)}:${i + 1}`] : [])),
);

for (const cycle of cycles) process.stderr.write(`check-imports: an import cycle: ${cycle.join(' ↔ ')}\n`);
for (const cast of casts) process.stderr.write(`check-imports: \`as unknown as\` at ${cast}\n`);
if (cycles.length > 0 || casts.length > 0) process.exit(1);
process.stdout.write(`check-imports: ${files.length} modules of src/, no import cycle, no \`as unknown as\`\n`);

#!/usr/bin/env bash
# Validates deploy/k8s/*.yaml without a cluster:
#   1. every file parses as YAML (the project's `yaml` package), and every
#      resource listed in kustomization.yaml exists;
#   2. every object against the Kubernetes OpenAPI JSON schema (npm package
#      kubernetes-models@5.1.0 = Kubernetes 1.27 schemas: types, enums, required);
#   3. strictly: no unknown field anywhere (a typo such as `readinessProbes`), by
#      type-checking each object as a TypeScript literal of the model's interface
#      (TypeScript's excess-property check applies at every depth).
# Needs node, npm (registry reachable, cache may be cold) and the project's
# node_modules (npm ci). Prints PASS/FAIL per file; exits non-zero on failure.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
K8S=${K8S_DIR:-$ROOT/deploy/k8s}
MODELS_VERSION=5.1.0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/validate-k8s.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

[[ -d $ROOT/node_modules/yaml && -d $ROOT/node_modules/typescript ]] || {
  echo "FAIL: run npm ci first (needs the project's yaml and typescript)"
  exit 1
}

if [[ -d $ROOT/node_modules/kubernetes-models ]]; then
  # The project's devDependency, pinned with its whole tree by package-lock.json.
  echo "== kubernetes-models from the project's node_modules (lockfile)"
  ln -s "$ROOT/node_modules" "$WORK/node_modules"
else
  echo "== installing kubernetes-models@$MODELS_VERSION into a temporary prefix"
  npm install --prefix "$WORK" --no-save --no-audit --no-fund --ignore-scripts --loglevel=error \
    "kubernetes-models@$MODELS_VERSION" >"$WORK/npm.log" 2>&1 || {
    cat "$WORK/npm.log"
    echo "FAIL: could not install kubernetes-models"
    exit 1
  }
fi
echo '{"type":"module"}' >"$WORK/package.json"

cat >"$WORK/validate.mjs" <<'JS'
import { createRequire } from 'module';
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'fs';
import { join } from 'path';
import { pathToFileURL } from 'url';

const [k8sDir, root, work] = process.argv.slice(2);
const require = createRequire(join(root, 'package.json'));
const YAML = require('yaml');
let failed = 0;
let passed = 0;
const ok = (m) => (passed++, console.log(`PASS: ${m}`));
const ko = (m) => (failed++, console.log(`FAIL: ${m}`));

const files = readdirSync(k8sDir).filter((f) => /\.ya?ml$/.test(f)).sort();
const objects = [];
for (const file of files) {
  const docs = YAML.parseAllDocuments(readFileSync(join(k8sDir, file), 'utf8'));
  const errors = docs.flatMap((d) => d.errors.map((e) => e.message));
  if (errors.length) {
    ko(`${file}: YAML: ${errors.join('; ')}`);
    continue;
  }
  const values = docs.map((d) => d.toJS()).filter((v) => v !== null);
  ok(`${file}: YAML parses (${values.length} document${values.length === 1 ? '' : 's'})`);
  for (const v of values) objects.push({ file, v });
}

const ts = ['import type {} from "kubernetes-models";'];
for (const [i, { file, v }] of objects.entries()) {
  const where = `${file}: ${v.kind ?? '?'}/${v.metadata?.name ?? '?'}`;
  if (v.kind === 'Kustomization') {
    const missing = (v.resources ?? []).filter((r) => !existsSync(join(k8sDir, r)));
    if (missing.length) ko(`${where}: missing resources ${missing.join(', ')}`);
    else ok(`${where}: lists ${v.resources.length} resources, all present`);
    const unlisted = files.filter((f) => f !== file && !(v.resources ?? []).includes(f));
    if (unlisted.length) ko(`${where}: files not listed: ${unlisted.join(', ')}`);
    continue;
  }
  if (typeof v.apiVersion !== 'string' || typeof v.kind !== 'string') {
    ko(`${where}: no apiVersion/kind`);
    continue;
  }
  const modulePath = `kubernetes-models/${v.apiVersion}/${v.kind}`;
  let Model;
  try {
    Model = (await import(pathToFileURL(join(work, 'node_modules', `${modulePath}.js`)).href))[v.kind];
  } catch {
    ko(`${where}: unknown apiVersion/kind ${v.apiVersion} ${v.kind} (Kubernetes 1.27 schemas)`);
    continue;
  }
  try {
    new Model(v).validate();
    ok(`${where}: valid against the ${v.apiVersion} ${v.kind} schema`);
  } catch (e) {
    ko(`${where}: ${e.message}`);
  }
  ts.push(`import type { I${v.kind} as T${i} } from "${modulePath}";`);
  ts.push(`// ${where}\nexport const o${i}: T${i} = ${JSON.stringify(v, null, 2)};`);
}
writeFileSync(join(work, 'strict.ts'), ts.join('\n') + '\n');
console.log(`${passed} ok, ${failed} failed`);
process.exit(failed ? 1 : 0);
JS

rc=0
node "$WORK/validate.mjs" "$K8S" "$ROOT" "$WORK" || rc=1

# Strict pass: unknown fields are type errors (excess-property check).
cat >"$WORK/tsconfig.json" <<'JSON'
{ "compilerOptions": { "strict": true, "noEmit": true, "module": "esnext", "moduleResolution": "bundler",
  "target": "es2022", "skipLibCheck": true, "types": [] }, "files": ["strict.ts"] }
JSON
if (cd "$WORK" && node "$ROOT/node_modules/typescript/bin/tsc" -p tsconfig.json) >"$WORK/tsc.log" 2>&1; then
  echo "PASS: no unknown or mistyped field in any object (TypeScript interfaces of kubernetes-models)"
else
  # Each error, with the manifest and object it is in (the // line above it in strict.ts).
  while IFS= read -r err; do
    line=$(grep -oE '^strict\.ts\([0-9]+' <<<"$err" | grep -oE '[0-9]+$' || true)
    where=""
    [[ -n $line ]] && where=$(head -n "$line" "$WORK/strict.ts" | grep '^// ' | tail -n 1 | sed 's#^// ##' || true)
    echo "  ${where:-?}: ${err#*: }"
  done < <(grep -E '^strict\.ts\(' "$WORK/tsc.log" || cat "$WORK/tsc.log")
  echo "FAIL: unknown or mistyped fields (strict check)"
  rc=1
fi
if ((rc == 0)); then echo "deploy/k8s: all manifests valid"; else echo "deploy/k8s: INVALID"; fi
exit "$rc"

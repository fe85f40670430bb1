#!/usr/bin/env bash
# Container check without a container engine: replays the Dockerfile's build and
# run steps on this machine, in a clean temporary directory.
#
#   1. build context: the repository's files (working tree: tracked + new
#      non-ignored files; or `git archive HEAD` with CONTAINER_CHECK_SOURCE=head),
#      filtered by .dockerignore exactly as `docker build .` would send them;
#   2. every stage of the Dockerfile: WORKDIR/ENV/COPY [--from]/RUN/USER, each
#      stage in its own root directory, RUN with only the stage's ENV (a clean
#      environment, its own HOME and npm cache, cold like a fresh image) and as an
#      unprivileged user, so a RUN cannot touch this machine's files;
#   3. the final stage's CMD as its USER (a non-root uid; `nobody` when that user
#      does not exist here), on a free loopback port; then /health (until 200),
#      the HEALTHCHECK command itself, /ready, /v1/variants, POST /v1/moves,
#      POST /v1/evaluate (the committed networks and bear-off databases load);
#   4. SIGTERM, and the process must exit 0 (graceful shutdown) in time.
#
# Prints PASS/FAIL lines and a closing "N passed, M failed"; exits non-zero on any
# failure. Leaves no process and no temporary directory behind.
#
# Environment: CONTAINER_CHECK_SOURCE=worktree|head (default worktree),
# CONTAINER_CHECK_HEALTH_TIMEOUT (s, default 60), CONTAINER_CHECK_STOP_TIMEOUT
# (s, default 30), CONTAINER_CHECK_KEEP=1 keeps the temporary directory.
set -euo pipefail
umask 022

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SOURCE=${CONTAINER_CHECK_SOURCE:-worktree}
HEALTH_TIMEOUT=${CONTAINER_CHECK_HEALTH_TIMEOUT:-60}
STOP_TIMEOUT=${CONTAINER_CHECK_STOP_TIMEOUT:-30}
STARTED=$SECONDS

WORK=$(mktemp -d "${TMPDIR:-/tmp}/container-check.XXXXXX")
chmod 755 "$WORK" # the unprivileged users below must be able to traverse it
SERVER_PID=""
STEP_PID=""
PASSED=0
FAILED=0

# shellcheck disable=SC2317 # invoked by the EXIT trap
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [[ -n $STEP_PID ]] && kill -0 "$STEP_PID" 2>/dev/null; then
    kill -TERM -- "-$STEP_PID" 2>/dev/null || true
    sleep 1
    kill -KILL -- "-$STEP_PID" 2>/dev/null || true
    wait "$STEP_PID" 2>/dev/null || true
  fi
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [[ ${CONTAINER_CHECK_KEEP:-0} == 1 ]]; then
    echo "kept $WORK"
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'echo "interrupted"; exit 130' INT
trap 'echo "terminated"; exit 143' TERM

pass() {
  PASSED=$((PASSED + 1))
  echo "PASS: $*"
}
fail() {
  FAILED=$((FAILED + 1))
  echo "FAIL: $*"
}
info() { echo "  .. $*"; }
# A failure after which nothing else can be checked.
die() {
  fail "$*"
  finish
}
finish() {
  echo "container check: $((SECONDS - STARTED)) s"
  echo "container check: $PASSED passed, $FAILED failed"
  if ((FAILED > 0)); then exit 1; fi
  exit 0
}
show_log() { # file [lines]
  [[ -f $1 ]] || return 0
  echo "  ---- last lines of $(basename "$1") ----"
  tail -n "${2:-40}" "$1" | sed 's/^/  | /'
  echo "  ----"
}

command -v setsid >/dev/null || die "setsid (util-linux) is not installed"
command -v node >/dev/null || die "node is not installed"
command -v npm >/dev/null || die "npm is not installed"
command -v git >/dev/null || die "git is not installed"
echo "== container check: replaying $ROOT/Dockerfile in $WORK (source: $SOURCE)"

# ---- unprivileged users -----------------------------------------------------------
# Running as root: RUN steps and the service run under another uid via setpriv.
# Not root: everything runs as the current (already non-root) user.
AS_ROOT=0
[[ $(id -u) == 0 ]] && AS_ROOT=1
if ((AS_ROOT)); then
  command -v setpriv >/dev/null || die "setpriv (util-linux) is needed to drop root"
fi
uid_of() { # user name or uid[:gid] -> "uid gid"; unknown names map to nobody
  local spec=$1 user=${1%%:*} group=""
  [[ $spec == *:* ]] && group=${spec#*:}
  local uid gid
  if [[ $user =~ ^[0-9]+$ ]]; then
    uid=$user
    gid=${group:-$user}
  elif getent passwd "$user" >/dev/null; then
    uid=$(getent passwd "$user" | cut -d: -f3)
    gid=$(getent passwd "$user" | cut -d: -f4)
  else
    uid=$(id -u nobody)
    gid=$(id -g nobody)
  fi
  if [[ -n $group && ! $group =~ ^[0-9]+$ ]]; then
    gid=$(getent group "$group" | cut -d: -f3)
    gid=${gid:-$(id -g nobody)}
  fi
  echo "$uid $gid"
}
as_user() { # prints the command prefix that runs as "uid gid"
  local uid=$1 gid=$2
  if ((AS_ROOT)) && [[ $uid != 0 ]]; then
    printf '%s\0' setpriv "--reuid=$uid" "--regid=$gid" --clear-groups --
  fi
}
read -r BUILD_UID BUILD_GID < <(uid_of nobody)

# ---- 1. the build context -----------------------------------------------------------
CONTEXT=$WORK/context
mkdir -p "$CONTEXT"
git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 || die "$ROOT is not a git checkout"
case $SOURCE in
  head)
    git -C "$ROOT" archive --format=tar HEAD | tar -C "$CONTEXT" -xf -
    ;;
  worktree)
    (
      cd "$ROOT"
      git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [[ -f $f || -L $f ]] && printf '%s\0' "$f"; done |
        tar --null -T - -cf -
    ) | tar -C "$CONTEXT" -xf -
    ;;
  *) die "CONTAINER_CHECK_SOURCE must be worktree or head, got $SOURCE" ;;
esac
[[ -f $CONTEXT/Dockerfile ]] || die "no Dockerfile in the build context"
cp "$CONTEXT/Dockerfile" "$WORK/Dockerfile"

# Node helpers: .dockerignore filtering (Docker's rules: patterns anchored at the
# context root, * and ? within one path segment, ** across segments, a pattern
# also matches a file through any parent directory, the last matching pattern
# wins, ! re-includes) and the Dockerfile parser, which prints bash assignments.
cat >"$WORK/helpers.js" <<'JS'
'use strict';
const fs = require('fs');
const path = require('path');
const q = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

function globToRegex(pattern) {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        i++;
        if (pattern[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else re += '.*';
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        re += `[${pattern.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '\\' && i + 1 < pattern.length) re += `\\${pattern[++i]}`;
    else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function dockerignore(context) {
  const file = path.join(context, '.dockerignore');
  if (!fs.existsSync(file)) return;
  const rules = fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const exclude = !l.startsWith('!');
      let p = path.posix.normalize((exclude ? l : l.slice(1)).trim()).replace(/^\/+/, '').replace(/\/+$/, '');
      if (p === '.' || p === '') p = '**';
      return { exclude, re: globToRegex(p) };
    });
  const excluded = (rel) => {
    const parts = rel.split('/');
    let out = false;
    for (const r of rules) {
      for (let n = 1; n <= parts.length; n++) {
        if (r.re.test(parts.slice(0, n).join('/'))) {
          out = r.exclude;
          break;
        }
      }
    }
    return out;
  };
  let kept = 0;
  let dropped = 0;
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      const rel = path.relative(context, abs).split(path.sep).join('/');
      if (e.isDirectory()) {
        walk(abs);
        if (fs.readdirSync(abs).length === 0) fs.rmdirSync(abs);
      } else if (excluded(rel)) {
        fs.rmSync(abs);
        dropped++;
      } else kept++;
    }
  };
  walk(context);
  console.log(`${kept} files kept, ${dropped} left out by .dockerignore`);
}

// Splits `a=b "c d"=e` or a flag list the way Docker reads ENV/LABEL words.
function words(s) {
  const out = [];
  let cur = '';
  let quote = null;
  let any = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < s.length) cur += s[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      any = true;
    } else if (c === '\\' && i + 1 < s.length) {
      cur += s[++i];
      any = true;
    } else if (/\s/.test(c)) {
      if (cur || any) out.push(cur);
      cur = '';
      any = false;
    } else {
      cur += c;
      any = true;
    }
  }
  if (quote) throw new Error(`unterminated quote in: ${s}`);
  if (cur || any) out.push(cur);
  return out;
}

function jsonArray(s) {
  const t = s.trim();
  if (!t.startsWith('[')) return null;
  try {
    const v = JSON.parse(t);
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null;
  } catch {
    return null;
  }
}

function parseDockerfile(file) {
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
  const logical = [];
  let cur = null;
  for (const raw of lines) {
    const t = raw.trim();
    if (t.startsWith('#') || (cur === null && t === '')) continue;
    const cont = /\\\s*$/.test(raw);
    const part = cont ? raw.replace(/\\\s*$/, '') : raw;
    cur = cur === null ? part : cur + part;
    if (!cont) {
      logical.push(cur.trim());
      cur = null;
    }
  }
  if (cur !== null) logical.push(cur.trim());
  const steps = [];
  const unsupported = (msg) => {
    throw new Error(`unsupported by the replay: ${msg}`);
  };
  for (const line of logical) {
    const m = /^([A-Za-z]+)\s+([\s\S]*)$/.exec(line);
    if (!m) unsupported(line);
    const op = m[1].toUpperCase();
    const rest = m[2].trim();
    if (op !== 'RUN' && op !== 'CMD' && op !== 'ENTRYPOINT' && op !== 'HEALTHCHECK' && /\$/.test(rest)) {
      unsupported(`variable substitution in ${op} ${rest}`);
    }
    const flagsAndRest = (text) => {
      const flags = {};
      let r = text;
      for (;;) {
        const f = /^--([a-z-]+)(?:=(\S*))?\s+/.exec(r);
        if (!f) break;
        flags[f[1]] = f[2] ?? 'true';
        r = r.slice(f[0].length);
      }
      return [flags, r];
    };
    const command = (text) => {
      const arr = jsonArray(text);
      return arr ? ['exec', ...arr] : ['sh', text];
    };
    switch (op) {
      case 'FROM': {
        const [, r] = flagsAndRest(rest);
        const w = words(r);
        const name = w.length === 3 && w[1].toUpperCase() === 'AS' ? w[2] : `stage${steps.filter((s) => s.op === 'FROM').length}`;
        steps.push({ op, args: [w[0], name] });
        break;
      }
      case 'WORKDIR':
      case 'USER':
      case 'STOPSIGNAL':
        steps.push({ op, args: [rest] });
        break;
      case 'ENV': {
        const w = words(rest);
        const args = [];
        if (w.length >= 1 && !w[0].includes('=')) args.push(w[0], rest.slice(rest.indexOf(w[0]) + w[0].length).trim());
        else
          for (const kv of w) {
            const i = kv.indexOf('=');
            if (i < 1) unsupported(`ENV ${rest}`);
            args.push(kv.slice(0, i), kv.slice(i + 1));
          }
        steps.push({ op, args });
        break;
      }
      case 'COPY': {
        const [flags, r] = flagsAndRest(rest);
        for (const k of Object.keys(flags)) if (!['from', 'chown', 'chmod', 'link'].includes(k)) unsupported(`COPY --${k}`);
        const list = jsonArray(r) ?? words(r);
        if (list.length < 2) unsupported(`COPY ${rest}`);
        steps.push({ op, args: [flags.from ?? '', flags.chown ?? '', flags.chmod ?? '', list[list.length - 1], ...list.slice(0, -1)] });
        break;
      }
      case 'RUN': {
        const [flags, r] = flagsAndRest(rest);
        if (Object.keys(flags).length) unsupported(`RUN --${Object.keys(flags)[0]}`);
        steps.push({ op, args: command(r) });
        break;
      }
      case 'CMD':
      case 'ENTRYPOINT':
        steps.push({ op, args: command(rest) });
        break;
      case 'HEALTHCHECK': {
        if (/^NONE$/i.test(rest)) {
          steps.push({ op, args: ['none'] });
          break;
        }
        const [, r] = flagsAndRest(rest);
        const c = /^CMD\s+([\s\S]*)$/i.exec(r);
        if (!c) unsupported(`HEALTHCHECK ${rest}`);
        steps.push({ op, args: command(c[1]) });
        break;
      }
      case 'EXPOSE':
      case 'LABEL':
        steps.push({ op, args: words(rest) });
        break;
      default:
        unsupported(op);
    }
  }
  if (!steps.length || steps[0].op !== 'FROM') unsupported('the first instruction must be FROM');
  let out = `STEPS=${steps.length}\n`;
  steps.forEach((s, i) => {
    out += `OP_${i}=${q(s.op)}\nARGS_${i}=(${s.args.map(q).join(' ')})\n`;
  });
  process.stdout.write(out);
}

const [what, arg] = process.argv.slice(2);
try {
  if (what === 'dockerignore') dockerignore(arg);
  else if (what === 'parse') parseDockerfile(arg);
  else throw new Error(`unknown helper ${what}`);
} catch (e) {
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
}
JS

CONTEXT_NOTE=$(node "$WORK/helpers.js" dockerignore "$CONTEXT") || die ".dockerignore could not be applied"
pass "build context from the $SOURCE: $CONTEXT_NOTE"
PLAN=$(node "$WORK/helpers.js" parse "$WORK/Dockerfile" 2>"$WORK/parse.err") || die "Dockerfile: $(cat "$WORK/parse.err")"
eval "$PLAN"
pass "Dockerfile parsed: $STEPS instructions"

# ---- 2. replay the stages ----------------------------------------------------------
declare -A STAGE_ROOT=()
STAGE=""
ROOTDIR=""
WORKDIR_IN="/"
USER_IN="root"
declare -a ENVV=()
declare -a RUN_CMD=() HC_CMD=() EP_CMD=()
STOP_SIGNAL=SIGTERM
FROM_IMAGE=""

map_path() { # a path inside the stage -> the path on this machine
  local p=$1
  [[ $p == /* ]] || p="${WORKDIR_IN%/}/$p"
  echo "$ROOTDIR$p"
}
stage_env() { # the environment of a process in the stage: ENV, PATH, HOME
  local home=$1
  printf '%s\0' "PATH=$PATH" "HOME=$home"
  local i
  for ((i = 0; i < ${#ENVV[@]}; i += 2)); do printf '%s\0' "${ENVV[i]}=${ENVV[i + 1]}"; done
}
set_env() {
  local k=$1 v=$2 i
  for ((i = 0; i < ${#ENVV[@]}; i += 2)); do
    if [[ ${ENVV[i]} == "$k" ]]; then
      ENVV[i + 1]=$v
      return
    fi
  done
  ENVV+=("$k" "$v")
}
get_env() {
  local i
  for ((i = 0; i < ${#ENVV[@]}; i += 2)); do [[ ${ENVV[i]} == "$1" ]] && echo "${ENVV[i + 1]}" && return; done
  return 0
}

copy_one() { # src(on this machine) dest(on this machine) dest_is_dir
  local src=$1 dest=$2 into=$3
  if [[ -d $src ]]; then
    mkdir -p "$dest"
    cp -a "$src/." "$dest/"
  elif ((into)); then
    mkdir -p "$dest"
    cp -a "$src" "$dest/"
  else
    mkdir -p "$(dirname "$dest")"
    cp -a "$src" "$dest"
  fi
}

for ((i = 0; i < STEPS; i++)); do
  op_var="OP_$i"
  args_var="ARGS_${i}[@]"
  op=${!op_var}
  args=("${!args_var}")
  case $op in
    FROM)
      FROM_IMAGE=${args[0]}
      STAGE=${args[1]}
      [[ -n ${STAGE_ROOT[$FROM_IMAGE]:-} ]] && die "FROM an earlier stage ($FROM_IMAGE) is not replayed"
      ROOTDIR=$WORK/stages/$STAGE
      mkdir -p "$ROOTDIR/root"
      STAGE_ROOT[$STAGE]=$ROOTDIR
      WORKDIR_IN=/
      USER_IN=root
      ENVV=()
      HC_CMD=()
      RUN_CMD=()
      EP_CMD=()
      echo "== stage $STAGE (FROM $FROM_IMAGE)"
      if [[ $FROM_IMAGE =~ ^node:([0-9]+) ]]; then
        want=${BASH_REMATCH[1]}
        have=$(node -p 'process.versions.node.split(".")[0]')
        if [[ $want == "$have" ]]; then
          info "the image's Node.js $want = this machine's $(node --version)"
        else
          info "WARNING: the image has Node.js $want, this machine $(node --version); the replay uses this machine's"
        fi
      fi
      ;;
    WORKDIR)
      WORKDIR_IN=$(map_path "${args[0]}")
      WORKDIR_IN=${WORKDIR_IN#"$ROOTDIR"}
      mkdir -p "$ROOTDIR$WORKDIR_IN"
      ;;
    ENV)
      for ((j = 0; j < ${#args[@]}; j += 2)); do set_env "${args[j]}" "${args[j + 1]}"; done
      ;;
    USER) USER_IN=${args[0]} ;;
    STOPSIGNAL) STOP_SIGNAL=${args[0]} ;;
    EXPOSE | LABEL) ;;
    COPY)
      from=${args[0]} chown=${args[1]} chmod=${args[2]} dest_in=${args[3]}
      srcs=("${args[@]:4}")
      if [[ -n $from ]]; then
        base=${STAGE_ROOT[$from]:-}
        [[ -n $base ]] || die "COPY --from=$from: no such stage earlier in the Dockerfile"
      else
        base=$CONTEXT
      fi
      dest=$(map_path "$dest_in")
      into=0
      [[ $dest_in == */ || ${#srcs[@]} -gt 1 || -d $dest ]] && into=1
      for s in "${srcs[@]}"; do
        s=${s#/}
        shopt -s nullglob dotglob
        # shellcheck disable=SC2206 # globbing is the point: COPY sources may be patterns
        matches=("$base"/$s)
        shopt -u nullglob dotglob
        if ((${#matches[@]} == 0)); then
          die "COPY ${from:+--from=$from }$s: not found in the ${from:-build context} (is it re-included in .dockerignore?)"
        fi
        ((${#matches[@]} > 1)) && into=1
        for m in "${matches[@]}"; do copy_one "$m" "$dest" "$into"; done
      done
      if [[ -n $chown ]] && ((AS_ROOT)); then
        read -r cu cg < <(uid_of "$chown")
        chown -R "$cu:$cg" "$dest"
      fi
      [[ -n $chmod ]] && chmod -R "$chmod" "$dest"
      info "COPY ${from:+--from=$from }${srcs[*]} -> $dest_in"
      ;;
    RUN)
      log=$WORK/logs/step-$i.log
      mkdir -p "$WORK/logs"
      # RUN as an unprivileged user owning the stage root, like root inside the
      # image but unable to change anything on this machine outside $WORK.
      if [[ $USER_IN == root || $USER_IN == 0 || $USER_IN == 0:* ]]; then
        ru=$BUILD_UID rg=$BUILD_GID
      else
        read -r ru rg < <(uid_of "$USER_IN")
      fi
      ((AS_ROOT)) && chown -R "$ru:$rg" "$ROOTDIR"
      mapfile -d '' envp < <(stage_env "$ROOTDIR/root")
      mapfile -d '' prefix < <(as_user "$ru" "$rg")
      if [[ ${args[0]} == sh ]]; then cmd=(/bin/sh -c "${args[1]}"); else cmd=("${args[@]:1}"); fi
      t0=$SECONDS
      echo "  RUN ${args[*]:1}"
      # In its own session, so that cleanup can stop the whole step (npm and its children);
      # `wait` returns at once when a signal arrives, and the EXIT trap does the rest.
      (cd "$ROOTDIR$WORKDIR_IN" && exec setsid --wait env -i "${envp[@]}" "${prefix[@]}" "${cmd[@]}") >"$log" 2>&1 </dev/null &
      STEP_PID=$!
      step_rc=0
      wait "$STEP_PID" || step_rc=$?
      STEP_PID=""
      if ((step_rc == 0)); then
        pass "[$STAGE] RUN ${args[*]:1} ($((SECONDS - t0)) s)"
        grep -E '^(added|removed|up to date)' "$log" | tail -n 1 | sed 's/^/  .. /' || true
      else
        show_log "$log"
        die "[$STAGE] RUN ${args[*]:1} failed"
      fi
      ;;
    CMD) RUN_CMD=("${args[@]}") ;;
    ENTRYPOINT) EP_CMD=("${args[@]}") ;;
    HEALTHCHECK) HC_CMD=("${args[@]}") ;;
    *) die "unexpected instruction $op" ;;
  esac
done

# Files written by RUN belong to root again, as they would in an image layer.
((AS_ROOT)) && chown -R 0:0 "$WORK/stages"
FINAL_ROOT=$ROOTDIR
APPDIR=$ROOTDIR$WORKDIR_IN

# ---- the image: what it contains -------------------------------------------------
[[ ${#RUN_CMD[@]} -gt 0 || ${#EP_CMD[@]} -gt 0 ]] || die "the final stage has no CMD"
if [[ $(get_env NODE_ENV) == production ]]; then
  pass "final stage sets NODE_ENV=production"
else
  fail "final stage does not set NODE_ENV=production"
fi
if [[ $USER_IN == root || $USER_IN == 0 || $USER_IN == 0:* ]]; then
  fail "final stage runs as root (add USER)"
else
  pass "final stage runs as USER $USER_IN"
fi
dev_present=()
for d in typescript jest tsx eslint @swc/core; do [[ -e $APPDIR/node_modules/$d ]] && dev_present+=("$d"); done
if ((${#dev_present[@]})); then
  fail "runtime node_modules holds devDependencies: ${dev_present[*]}"
else
  pass "runtime node_modules holds no devDependencies ($(find "$APPDIR/node_modules" -mindepth 1 -maxdepth 2 -name package.json -path '*/node_modules/*' 2>/dev/null | wc -l) top-level packages; $(du -sh "$FINAL_ROOT" | cut -f1) in all)"
fi
if ((${#HC_CMD[@]} == 0)) || [[ ${HC_CMD[0]} == none ]]; then fail "no HEALTHCHECK in the final stage"; fi

# ---- 3. run it ------------------------------------------------------------------------
PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
BASE=http://127.0.0.1:$PORT
# The equivalent of `docker run -e PORT=… -e HOST=127.0.0.1`: a free port, loopback only.
set_env PORT "$PORT"
set_env HOST 127.0.0.1
read -r RUN_UID RUN_GID < <(uid_of "$USER_IN")
if ((!AS_ROOT)); then
  RUN_UID=$(id -u)
  RUN_GID=$(id -g)
fi
mapfile -d '' envp < <(stage_env /nonexistent)
mapfile -d '' prefix < <(as_user "$RUN_UID" "$RUN_GID")
argv=()
((${#EP_CMD[@]})) && { if [[ ${EP_CMD[0]} == sh ]]; then argv=(/bin/sh -c "${EP_CMD[1]}"); else argv=("${EP_CMD[@]:1}"); fi; }
if ((${#RUN_CMD[@]})); then
  if [[ ${RUN_CMD[0]} == sh ]]; then argv+=(/bin/sh -c "${RUN_CMD[1]}"); else argv+=("${RUN_CMD[@]:1}"); fi
fi
SERVER_LOG=$WORK/server.log
echo "== run: ${argv[*]} as uid $RUN_UID in $APPDIR, PORT=$PORT"
(cd "$APPDIR" && exec env -i "${envp[@]}" "${prefix[@]}" "${argv[@]}") >"$SERVER_LOG" 2>&1 </dev/null &
SERVER_PID=$!

http() { # method url [json body] -> prints the status; the body goes to $WORK/body
  node -e '
    const [method, url, body] = process.argv.slice(1);
    fetch(url, { method, body: body || undefined, headers: body ? { "content-type": "application/json" } : {}, signal: AbortSignal.timeout(5000) })
      .then(async (r) => { require("fs").writeFileSync(process.env.BODY_FILE, await r.text()); console.log(r.status); })
      .catch(() => console.log(0));
  ' "$@"
}
export BODY_FILE=$WORK/body

t0=$SECONDS
status=0
while ((SECONDS - t0 < HEALTH_TIMEOUT)); do
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    rc=0
    wait "$SERVER_PID" || rc=$?
    SERVER_PID=""
    show_log "$SERVER_LOG"
    die "the service exited with $rc before /health answered"
  fi
  status=$(http GET "$BASE/health")
  [[ $status == 200 ]] && break
  sleep 0.3
done
if [[ $status == 200 ]]; then
  pass "GET /health 200 after $((SECONDS - t0)) s"
else
  show_log "$SERVER_LOG"
  die "GET /health did not answer 200 within $HEALTH_TIMEOUT s (last: $status)"
fi

uid_now=$(awk '/^Uid:/ {print $2}' "/proc/$SERVER_PID/status")
if [[ $uid_now != 0 ]]; then pass "the service runs as uid $uid_now (not root)"; else fail "the service runs as root"; fi
if tr '\0' '\n' <"/proc/$SERVER_PID/environ" 2>/dev/null | grep -qx 'NODE_ENV=production'; then
  pass "the service sees NODE_ENV=production"
else
  fail "the service does not see NODE_ENV=production"
fi

if ((${#HC_CMD[@]})) && [[ ${HC_CMD[0]} != none ]]; then
  if [[ ${HC_CMD[0]} == sh ]]; then hc=(/bin/sh -c "${HC_CMD[1]}"); else hc=("${HC_CMD[@]:1}"); fi
  if (cd "$APPDIR" && exec env -i "${envp[@]}" "${prefix[@]}" "${hc[@]}") >"$WORK/healthcheck.log" 2>&1 </dev/null; then
    pass "the Dockerfile's HEALTHCHECK command exits 0"
  else
    show_log "$WORK/healthcheck.log"
    fail "the Dockerfile's HEALTHCHECK command fails"
  fi
fi

# /ready turns 200 once the process has warmed up (WARM_UP_ROUNDS), a few seconds after /health.
t0=$SECONDS
for _ in $(seq 1 100); do
  status=$(http GET "$BASE/ready")
  [[ $status == 200 ]] && break
  sleep 0.3
done
if [[ $status == 200 ]]; then pass "GET /ready 200 after $((SECONDS - t0)) s more $(cat "$BODY_FILE")"; else fail "GET /ready answered $status $(head -c 300 "$BODY_FILE")"; fi

status=$(http GET "$BASE/v1/variants")
if [[ $status == 200 ]] && grep -q '"name":"long"' "$BODY_FILE"; then
  pass "GET /v1/variants 200 ($(node -p 'JSON.parse(require("fs").readFileSync(process.env.BODY_FILE)).variants.length') variants)"
else
  fail "GET /v1/variants answered $status $(head -c 300 "$BODY_FILE")"
fi

status=$(http POST "$BASE/v1/moves" '{"variant":"long","positionId":"GAAA8_fAAAg__DA","dice":[6,5]}')
if [[ $status == 200 ]] && grep -q '"notation":"24/18/13"' "$BODY_FILE"; then
  pass "POST /v1/moves 200 (opening 6-5: 24/18/13)"
else
  fail "POST /v1/moves answered $status $(head -c 300 "$BODY_FILE")"
fi

# The evaluators read data/ (networks and bear-off databases): a race position needs both.
status=$(http POST "$BASE/v1/evaluate" '{"variant":"backgammon","position":{"turn":"white","white":{"points":{"1":2,"2":2},"off":11},"black":{"points":{"6":3,"20":1},"off":11}}}')
if [[ $status == 200 ]] && grep -q '"evaluator":{"name":"neural-short"' "$BODY_FILE"; then
  pass "POST /v1/evaluate 200 (neural evaluator and bear-off database loaded)"
else
  fail "POST /v1/evaluate answered $status $(head -c 300 "$BODY_FILE")"
fi

status=$(http POST "$BASE/v1/evaluate" '{"variant":"long","position":{"turn":"white","white":{"points":{"1":2,"2":2},"off":11},"black":{"points":{"1":3,"3":1},"off":11}}}')
if [[ $status == 200 ]] && grep -q '"race":true' "$BODY_FILE"; then
  pass "POST /v1/evaluate 200 (long-nardy race from the bear-off database)"
else
  fail "POST /v1/evaluate (long) answered $status $(head -c 300 "$BODY_FILE")"
fi

# ---- 4. graceful shutdown -----------------------------------------------------------
t0=$SECONDS
kill -s "${STOP_SIGNAL#SIG}" "$SERVER_PID"
while kill -0 "$SERVER_PID" 2>/dev/null && ((SECONDS - t0 < STOP_TIMEOUT)); do sleep 0.2; done
if kill -0 "$SERVER_PID" 2>/dev/null; then
  show_log "$SERVER_LOG" 20
  fail "still running $STOP_TIMEOUT s after $STOP_SIGNAL (killed)"
else
  rc=0
  wait "$SERVER_PID" || rc=$?
  SERVER_PID=""
  if [[ $rc == 0 ]]; then
    pass "$STOP_SIGNAL: exited 0 after $((SECONDS - t0)) s"
  else
    show_log "$SERVER_LOG" 20
    fail "$STOP_SIGNAL: exited with $rc"
  fi
fi

finish

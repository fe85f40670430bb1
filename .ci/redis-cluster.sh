#!/usr/bin/env bash
# A local 3-master Redis Cluster for the scale-out tests (test/cluster/).
#
#   .ci/redis-cluster.sh start    start it (idempotent: a healthy cluster is kept)
#   .ci/redis-cluster.sh stop     stop it and remove its directory (idempotent)
#   .ci/redis-cluster.sh status   exit 0 when it is up and `cluster_state:ok`
#   .ci/redis-cluster.sh nodes    print the seed list, e.g. 127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103
#
# Three `redis-server --cluster-enabled yes` on loopback, on the first three free
# ports from REDIS_CLUSTER_BASE_PORT (default 7101; the cluster bus port, +10000,
# must be free too), formed with `redis-cli --cluster create … --cluster-replicas 0`.
# Nothing is persisted. State lives in REDIS_CLUSTER_DIR (default
# ${TMPDIR:-/tmp}/nardy-redis-cluster), which `stop` removes.
#
#   .ci/redis-cluster.sh start && export REDIS_CLUSTER_NODES=$(.ci/redis-cluster.sh nodes)
set -euo pipefail

DIR=${REDIS_CLUSTER_DIR:-${TMPDIR:-/tmp}/nardy-redis-cluster}
BASE_PORT=${REDIS_CLUSTER_BASE_PORT:-7101}
HOST=127.0.0.1
MASTERS=3
WAIT_SECONDS=${REDIS_CLUSTER_WAIT:-30}

log() { echo "redis-cluster: $*"; }
die() {
  echo "redis-cluster: FAIL: $*" >&2
  exit 1
}

need() { command -v "$1" >/dev/null || die "$1 is not installed (apt-get install -y redis-server redis-tools)"; }

port_busy() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

ports() { [[ -f $DIR/ports ]] && cat "$DIR/ports"; }

nodes() {
  local list=() p
  for p in $(ports); do list+=("$HOST:$p"); done
  local IFS=,
  echo "${list[*]}"
}

# The pid of the redis-server we started on a port, if it is still that process.
our_pid() {
  local port=$1 pid
  [[ -f $DIR/$port/redis.pid ]] || return 1
  pid=$(cat "$DIR/$port/redis.pid")
  [[ -n $pid && -r /proc/$pid/cmdline ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "redis-server.*:$port" || return 1
  echo "$pid"
}

healthy() {
  local p
  [[ -f $DIR/ports ]] || return 1
  for p in $(ports); do
    our_pid "$p" >/dev/null || return 1
    redis-cli -h "$HOST" -p "$p" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || return 1
  done
}

stop() {
  if [[ ! -d $DIR ]]; then
    log "not running (no $DIR)"
    return 0
  fi
  local p pid pids=()
  for p in $(ports); do
    if pid=$(our_pid "$p"); then
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
    fi
  done
  local i
  for pid in "${pids[@]}"; do
    for ((i = 0; i < 100; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  done
  rm -rf "$DIR"
  log "stopped ${#pids[@]} node(s), removed $DIR"
}

start() {
  need redis-server
  need redis-cli
  if healthy; then
    log "already running: $(nodes)"
    print_nodes
    return 0
  fi
  [[ -d $DIR ]] && {
    log "found a stale $DIR; cleaning it up"
    stop
  }
  mkdir -p "$DIR"
  # Stop whatever was started if anything below fails.
  trap 'rc=$?; if ((rc != 0)); then echo "redis-cluster: start failed; cleaning up" >&2; stop; fi' EXIT

  local chosen=() p=$BASE_PORT
  while ((${#chosen[@]} < MASTERS)); do
    ((p < BASE_PORT + 200)) || die "no ${MASTERS} free ports from $BASE_PORT (and +10000 for the bus)"
    if ! port_busy "$p" && ! port_busy $((p + 10000)); then chosen+=("$p"); fi
    p=$((p + 1))
  done
  printf '%s\n' "${chosen[@]}" >"$DIR/ports"

  for p in "${chosen[@]}"; do
    mkdir -p "$DIR/$p"
    redis-server --port "$p" --bind "$HOST" --protected-mode yes \
      --cluster-enabled yes --cluster-config-file "$DIR/$p/nodes.conf" --cluster-node-timeout 5000 \
      --dir "$DIR/$p" --save "" --appendonly no \
      --maxmemory 256mb --maxmemory-policy volatile-ttl \
      --daemonize yes --pidfile "$DIR/$p/redis.pid" --logfile "$DIR/$p/redis.log"
  done
  local i
  for p in "${chosen[@]}"; do
    for ((i = 0; i < 50; i++)); do
      [[ $(redis-cli -h "$HOST" -p "$p" ping 2>/dev/null) == PONG ]] && break
      sleep 0.1
    done
    [[ $(redis-cli -h "$HOST" -p "$p" ping 2>/dev/null) == PONG ]] || die "node $p does not answer (see $DIR/$p/redis.log)"
  done

  local addrs=()
  for p in "${chosen[@]}"; do addrs+=("$HOST:$p"); done
  redis-cli --cluster create "${addrs[@]}" --cluster-replicas 0 --cluster-yes >"$DIR/create.log" 2>&1 ||
    {
      cat "$DIR/create.log" >&2
      die "redis-cli --cluster create failed"
    }

  local deadline=$((SECONDS + WAIT_SECONDS))
  until healthy; do
    ((SECONDS < deadline)) || die "cluster_state is not ok after ${WAIT_SECONDS} s"
    sleep 0.2
  done
  trap - EXIT
  log "cluster_state:ok on ${#chosen[@]} masters"
  print_nodes
}

print_nodes() {
  local first
  first=$(head -n 1 "$DIR/ports")
  redis-cli -h "$HOST" -p "$first" cluster nodes | awk '{ printf "  %s %s %s slots %s\n", $1, $2, $3, $9 }'
  echo "REDIS_CLUSTER_NODES=$(nodes)"
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status)
    if healthy; then
      log "up: $(nodes)"
    else
      log "not running"
      exit 1
    fi
    ;;
  nodes)
    healthy || die "not running (start it with: $0 start)"
    nodes
    ;;
  *)
    echo "usage: $0 start|stop|status|nodes" >&2
    exit 2
    ;;
esac

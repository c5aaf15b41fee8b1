#!/bin/sh
# Benchmark: what a PostgreSQL database costs a run and a report, beside an SQLite file. One
# experiment of TRIALS trials of `true` (no host but this machine, no knob, no root) runs
# into each engine ROUNDS times; prints the run's wall time and its "overhead per trial"
# (wall time minus workload time, as the run reports it), then the time `report` and
# `status` take on each: both engines are written and read by the same code, one
# transaction per change, the readers' SQL run where the data is.
# Uses a database of its own on lab/postgres, brought up when it is down (and down again).
# Asserts nothing.
# Usage: bench/postgres-store.sh [ROUNDS [TRIALS]]     (default 3 200)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
trials=${2:-200}
case $rounds$trials in *[!0-9]*) echo "usage: bench/postgres-store.sh [ROUNDS [TRIALS]]" >&2; exit 2 ;; esac
work=$(mktemp -d)
started=
bench_db=bench_$$
psql_() { psql -X -q -h 127.0.0.1 -p "$port" -U tunelab -d tunelab -c "$1"; }
cleanup() {
  rm -rf "$work"
  [ -z "${port:-}" ] || psql_ "DROP DATABASE IF EXISTS $bench_db" || true
  [ -z "$started" ] || "$root/lab/postgres" down >/dev/null
}
trap cleanup EXIT
if ! "$root/lab/postgres" status >/dev/null 2>&1; then
  started=1
fi
"$root/lab/postgres" up >/dev/null
set -a
. /var/tmp/tunelab-postgres/env
set +a
# A database of the benchmark's own, dropped at the end.
port=${TUNELAB_PG_URL##*:}
port=${port%%/*}
psql_ "CREATE DATABASE $bench_db"
url=${TUNELAB_PG_URL%/*}/$bench_db
"$root/tunelab" --version >/dev/null # build the jar outside the measurement

cells=$((trials / 2))
values=$(seq -s, 1 "$cells")
cat >"$work/m.yaml" <<YAML
name: bench-store
matrix:
  n: [$values]
repeat: 2
workload:
  command: "true"
YAML

now_ms() { date +%s%3N; }
printf 'postgres-store.sh: %s cores, load %s, %s; %s trials per run\n\n' "$(nproc)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)" "$(date -u +%FT%TZ)" "$((cells * 2))"
printf '%-10s %5s %10s %18s %10s %10s\n' engine round "run s" "overhead ms/trial" "report s" \
  "status s"
i=1
while [ "$i" -le "$rounds" ]; do
  for engine in sqlite postgresql; do
    if [ "$engine" = sqlite ]; then db="$work/r$i.db"; else db=$url; fi
    t0=$(now_ms)
    (cd "$work" && "$root/tunelab" run m.yaml --db "$db" >"$work/out" 2>&1) ||
      { cat "$work/out" >&2; exit 4; }
    t1=$(now_ms)
    overhead=$(sed -n 's/.*overhead per trial \([0-9]*\) ms.*/\1/p' "$work/out" | tail -n 1)
    id=$(sed -n 's/^experiment \([0-9]*\) finished.*/\1/p' "$work/out" | tail -n 1)
    "$root/tunelab" report "$id" --db "$db" >/dev/null
    t2=$(now_ms)
    "$root/tunelab" status --db "$db" >/dev/null
    t3=$(now_ms)
    printf '%-10s %5s %10s %18s %10s %10s\n' "$engine" "$i" \
      "$(echo "$t0 $t1" | awk '{printf "%.1f", ($2 - $1) / 1000}')" "$overhead" \
      "$(echo "$t1 $t2" | awk '{printf "%.2f", ($2 - $1) / 1000}')" \
      "$(echo "$t2 $t3" | awk '{printf "%.2f", ($2 - $1) / 1000}')"
  done
  i=$((i + 1))
done

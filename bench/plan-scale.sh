#!/bin/sh
# Benchmark: `tunelab plan` on a generated matrix of 10^N cells (default N=5: 100,000 cells,
# 300,000 trials): N parameter axes of 10 values, a knob axis and a cases axis of one value
# each. Prints wall time and peak memory (max RSS). Touches no host and no database.
# Then `tunelab run` of the same cells without knobs (workload `true` on the local host, its
# own agent state directory, a database in a temp dir; Ctrl-C once its first trial has
# started): prints the time from the command's start to the first trial's start (the plan
# expanded and stored) and the JVM's peak memory until then (VmHWM).
# Usage: bench/plan-scale.sh [N]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
exp=${1:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
m=$dir/scale.yaml
r=$dir/scale-run.yaml
axes() {
  i=1
  while [ "$i" -le "$exp" ]; do
    echo "  p$i: [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9]"
    i=$((i + 1))
  done
}
{
  echo "name: plan-scale"
  echo "matrix:"
  axes
  echo "  local.vm.dirty_ratio: [10]"
  echo "  case:"
  echo "    slow:"
  echo "      local.vm.dirty_expire_centisecs: 500"
  echo "repeat: 3"
  echo "order: shuffle"
  echo "seed: 7"
  echo "workload:"
  echo "  command: \"true\""
} >"$m"
{
  echo "name: plan-scale-run"
  echo "matrix:"
  axes
  echo "repeat: 3"
  echo "order: shuffle"
  echo "seed: 7"
  echo "workload:"
  echo "  command: \"true\""
} >"$r"
"$root/tunelab" --version >/dev/null # build outside the measurement
run() {
  /usr/bin/time -f '%e %M' -o "$dir/time" "$root/tunelab" plan "$@" "$m" >"$dir/out"
  read -r secs kb <"$dir/time"
  printf '%-22s %8s s  %8s MiB peak RSS  (%s)\n' "plan $*" "$secs" "$((kb / 1024))" "$(head -n 1 "$dir/out")"
}
run --summary
run

# The run: its own agent state (another tunelab on this machine keeps its lock) and database.
# Once its first trial has started it gets SIGTERM (as Ctrl-C: the trial ends, the host is
# restored); its memory is read then, as the JVM's peak RSS so far (VmHWM).
start=$(date +%s%N)
TUNELAB_STATE=$dir/agent-state "$root/tunelab" run --db "$dir/run.db" "$r" >"$dir/run.out" 2>&1 &
pid=$!
first=
n=0
while [ -z "$first" ]; do
  kill -0 "$pid" 2>/dev/null || { tail -n 5 "$dir/run.out" >&2; echo "plan-scale: tunelab run ended early" >&2; exit 1; }
  first=$(sqlite3 "$dir/run.db" "select min(started_at) from trials" 2>/dev/null) || first=
  n=$((n + 1))
  [ "$n" -lt 1200 ] || { echo "plan-scale: no trial started within 60 s" >&2; exit 1; }
  [ -n "$first" ] || sleep 0.05
done
hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB$/\1/p' "/proc/$pid/status")
# Its CPU time so far (utime + stime, all threads): on a shared machine a steadier figure than
# the wall time, which waits for the other sessions' processes.
ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
kill -TERM "$pid" # as Ctrl-C: the shutdown hook ends the trial and restores (INT is ignored by a background job)
wait "$pid" || true
trials=$(sqlite3 "$dir/run.db" "select count(*) from trials")
# started_at is UTC ISO-8601 with milliseconds.
first_ns=$(date -d "$first" +%s%N)
printf '%-22s %8s s  %8s MiB peak RSS  (%s s CPU; %s trials stored, then Ctrl-C)\n' \
  "run, to the first trial" "$(awk -v a="$start" -v b="$first_ns" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')" \
  "$((hwm / 1024))" "$(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }')" "$trials"

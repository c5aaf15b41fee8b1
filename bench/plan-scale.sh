#!/bin/sh
# Benchmark: `tunelab plan` on a generated matrix of 10^N cells (default N=5: 100,000 cells,
# 300,000 trials): N parameter axes of 10 values, a knob axis and a cases axis of one value
# each. Prints wall time and peak memory (max RSS). Touches no host and no database.
# Usage: bench/plan-scale.sh [N]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
exp=${1:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
m=$dir/scale.yaml
{
  echo "name: plan-scale"
  echo "matrix:"
  i=1
  while [ "$i" -le "$exp" ]; do
    echo "  p$i: [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9]"
    i=$((i + 1))
  done
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
"$root/tunelab" --version >/dev/null # build outside the measurement
jar="$root/orchestrator/target/tunelab.jar"
run() {
  /usr/bin/time -f '%e %M' -o "$dir/time" java -jar "$jar" plan "$@" "$m" >"$dir/out"
  read -r secs kb <"$dir/time"
  printf '%-22s %8s s  %8s MiB peak RSS  (%s)\n' "plan $*" "$secs" "$((kb / 1024))" "$(head -n 1 "$dir/out")"
}
run --summary
run

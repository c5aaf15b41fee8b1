#!/bin/sh
# Benchmark: how often `compare` marks a row significant when there is no difference at all.
# Simulates N pairs of cells drawn from one distribution (io.tunelab.matrix.FalsePositives) per
# case: normal and right-skewed noise at a coefficient of variation of 1, 2 and 3 %, each under
# a fixed `repeat: 5` and under `repeat: {min: 3, max: 12, target: 2%}`, then with `compare:`
# (both pilots fix one count for the pair), every cell repeated as the run's rule says and each
# pair tested as compare tests a row. Prints per case the mean
# repetitions per cell and `false-positive rate X% (nominal 5%)`. Touches no host and no
# database; it asserts nothing (FalsePositivesTest runs a small seeded version).
# Usage: bench/false-positives.sh [N [SEED]]     (default 20000 1)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
pairs=${1:-20000}
seed=${2:-1}
case $pairs$seed in *[!0-9]*) echo "usage: bench/false-positives.sh [N [SEED]]" >&2; exit 2 ;; esac
log=$(mktemp)
trap 'rm -f "$log"' EXIT

"$root/tunelab" --version >/dev/null # build the jar
(cd "$root" && mvn -o -B -q -DskipTests test-compile -pl orchestrator -am >"$log" 2>&1) ||
  { cat "$log" >&2; exit 4; }
cp="$root/orchestrator/target/tunelab.jar:$root/orchestrator/target/test-classes"

printf 'false-positives.sh: %s pairs per case, seed %s, %s cores, %s\n\n' "$pairs" "$seed" \
  "$(nproc)" "$(date -u +%FT%TZ)"
java -cp "$cp" io.tunelab.matrix.FalsePositives "$pairs" "$seed"

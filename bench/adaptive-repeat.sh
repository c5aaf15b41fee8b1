#!/bin/sh
# Benchmark: how many trials an adaptive repeat saves against a fixed `repeat: MAX`, on a real
# loop disk: dd reads of MIB MiB across read_ahead_kb and the scheduler, caches dropped before every
# trial, under `repeat: {min: MIN, max: MAX, target: TARGET}`. Prints per cell the measured trials and the
# half-width reached, then trials run, trials skipped (= saved against a fixed repeat of MAX)
# and the cells that reached MAX short of the target. Needs root (loop device, knobs); every
# knob is restored and the loop device and its file are removed. It asserts nothing.
# Usage: bench/adaptive-repeat.sh [MIN MAX TARGET [MIB]]     (default 3 12 2% 256)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
min=${1:-3}
max=${2:-12}
target=${3:-2%}
mib=${4:-256}
[ "$(id -u)" = 0 ] || { echo "adaptive-repeat.sh: needs root (a loop disk and its knobs)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/adaptive.yaml" <<YAML
name: adaptive-bench
setup:
  - run: dd if=/dev/zero of=$work/disk.img bs=1M count=$mib conv=fsync status=none && losetup -f --show $work/disk.img
    capture: dev
teardown:
  - run: losetup -d /dev/\${dev} && rm -f $work/disk.img
matrix:
  local.block.\${dev}.scheduler: [none, mq-deadline]
  local.block.\${dev}.read_ahead_kb: [128, 512, 2048]
repeat: {min: $min, max: $max, target: "$target"}
before_trial: [sync, drop_caches]
workload:
  dd: {input: "/dev/\${dev}", output: /dev/null, bs: 1M, total: ${mib}MiB}
YAML
printf 'adaptive-repeat.sh: %s cores, load %s, %s\n' "$(nproc)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)" "$(date -u +%FT%TZ)"
start=$(date +%s)
"$root/tunelab" run --db "$work/bench.db" "$work/adaptive.yaml" >"$work/run.log" 2>&1 ||
  { cat "$work/run.log" >&2; exit 4; }
end=$(date +%s)
"$root/tunelab" report --db "$work/bench.db" | sed -n '1,/^$/p'
"$root/tunelab" query --db "$work/bench.db" --format csv \
  "SELECT sum(status = 'ok') AS run, sum(status = 'skipped') AS saved, count(*) AS fixed_repeat_max
   FROM trials" | tr ',' ' ' | {
  read -r _header
  read -r ran saved fixed
  printf 'trials run %s of %s planned (a fixed repeat: %s); %s saved (%s%%); wall %s s\n' \
    "$ran" "$fixed" "$max" "$saved" "$((saved * 100 / fixed))" "$((end - start))"
}

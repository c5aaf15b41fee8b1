#!/bin/sh
# Benchmark: a race against the grid of the same space, on a synthetic response surface with a
# known optimum (bench/surface: a workload that reads the knobs the kernel holds for a loop
# disk and prints a figure, two strong knobs, a weak one and an inert one, Gaussian noise).
# The space is read_ahead_kb x max_sectors_kb x scheduler x nr_requests (6 x 5 x 2 x 4 = 240
# cells); the optimum, 1030 MiB/s, is read_ahead_kb=1024, max_sectors_kb=256, scheduler none.
# For each noise level: the race (`search:` with BUDGET trials and a confirmation of 5 + 5),
# and the grid (every cell, repeat 3, its best cell by mean). Prints per method the trials
# spent, the cell chosen, its noise-free figure and how far that is below the optimum. Needs
# root (a loop disk and its knobs); every knob is restored and the loop disk removed. It
# asserts nothing.
# Usage: bench/search.sh [BUDGET [NOISES]]     (default 150 "1 2 5")
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
budget=${1:-150}
noises=${2:-1 2 5}
[ "$(id -u)" = 0 ] || { echo "search.sh: needs root (a loop disk and its knobs)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
optimum=1030

# $1 name, $2 noise, $3 the matrix's own lines (search: or repeat:)
matrix() {
  cat <<YAML
name: $1
seed: 5
$3
setup:
  - run: truncate -s 64M $work/disk.img && losetup -f --show $work/disk.img
    capture: dev
teardown:
  - run: losetup -d /dev/\${dev} && rm -f $work/disk.img
matrix:
  local.block.\${dev}.read_ahead_kb: [128, 256, 512, 1024, 2048, 4096]
  local.block.\${dev}.max_sectors_kb: [64, 128, 256, 512, 1024]
  local.block.\${dev}.scheduler: [none, mq-deadline]
  local.block.\${dev}.nr_requests: [16, 32, 64, 128]
workload:
  command: $root/bench/surface \${dev} --round \${rep} --seed 1 --noise $2
  parser: metrics
YAML
}

# Prints one line of a query's CSV answer, its fields separated by blanks.
query() {
  "$root/tunelab" query --db "$1" --format csv "$2" | sed -n 2p | tr ',' ' '
}

# $1 db, $2 the cell's id: its read_ahead_kb, max_sectors_kb and scheduler.
cell_values() {
  query "$1" "SELECT
      max(CASE WHEN name LIKE '%read_ahead_kb' THEN value END),
      max(CASE WHEN name LIKE '%max_sectors_kb' THEN value END),
      max(CASE WHEN name LIKE '%scheduler' THEN value END)
    FROM cell_params WHERE cell_id = $2"
}

# $1 method, $2 noise, $3 trials, $4 db, $5 cell id
line() {
  set -- "$1" "$2" "$3" "$(cell_values "$4" "$5")"
  # shellcheck disable=SC2086 # three values
  truth=$("$root/bench/surface" --at $4 --noise 0 | sed -n 's/^mib_per_s \([0-9.]*\).*/\1/p')
  printf '%-6s %5s%% %7s  %-28s %9s %8s%%\n' "$1" "$2" "$3" "$(echo "$4" | tr ' ' /)" \
    "$truth" "$(awk -v t="$truth" -v o="$optimum" 'BEGIN { printf "%.1f", (o - t) / o * 100 }')"
}

printf 'search.sh: %s cores, load %s, %s; budget %s\n' "$(nproc)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)" "$(date -u +%FT%TZ)" "$budget"
printf '%-6s %6s %7s  %-28s %9s %9s\n' method noise trials "chosen (ra/ms/scheduler)" \
  "true" "below-opt"
for noise in $noises; do
  matrix race "$noise" "search: {objective: maximize mib_per_s, budget: $budget, confirm: 5}" \
    >"$work/race.yaml"
  rm -f "$work/race.db"
  "$root/tunelab" run --db "$work/race.db" "$work/race.yaml" >"$work/race.log" 2>&1 ||
    { cat "$work/race.log" >&2; exit 4; }
  trials=$(query "$work/race.db" "SELECT count(*) FROM trials WHERE status = 'ok'")
  winner=$(query "$work/race.db" "SELECT cell_id FROM search_rounds WHERE state = 'winner'
    ORDER BY round DESC LIMIT 1")
  line race "$noise" "$trials" "$work/race.db" "$winner"

  matrix grid "$noise" "repeat: 3" >"$work/grid.yaml"
  rm -f "$work/grid.db"
  "$root/tunelab" run --db "$work/grid.db" "$work/grid.yaml" >"$work/grid.log" 2>&1 ||
    { cat "$work/grid.log" >&2; exit 4; }
  trials=$(query "$work/grid.db" "SELECT count(*) FROM trials WHERE status = 'ok'")
  best=$(query "$work/grid.db" "SELECT cell_id FROM cell_stats
    WHERE job = 'all' AND metric = 'mib_per_s' ORDER BY mean DESC LIMIT 1")
  line grid "$noise" "$trials" "$work/grid.db" "$best"
done
printf '(load %s at the end)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"

#!/bin/sh
# Benchmark: `tunelab report` and `compare` on two experiments of 10,000 cells x 10 repetitions
# (200,000 trials), and `tunelab export` of one experiment's 1,000,000 samples. Builds the
# database first through the store API, trial by trial as the runner commits them (several
# minutes), then prints wall time and peak memory (max RSS) of each command, and the export's
# throughput; export also runs with a 64 MiB heap to show that memory does not grow with samples.
# The database lives on /dev/shm when there is one (set DIR to choose): the figures are about
# reading it, and building it on a disk costs an fsync per trial.
# Usage: bench/results-scale.sh [CELLS [REPETITIONS]]     (default 10000 10)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cells=${1:-10000}
reps=${2:-10}
if [ -z "${DIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then DIR=/dev/shm; fi
dir=$(mktemp -d "${DIR:-${TMPDIR:-/tmp}}/tunelab-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
db=$dir/scale.db

"$root/tunelab" --version >/dev/null # build the jar outside the measurement
(cd "$root" && mvn -o -B -q -DskipTests test-compile -pl orchestrator -am >"$dir/build.log" 2>&1) ||
  { cat "$dir/build.log" >&2; exit 4; }
jar=$root/orchestrator/target/tunelab.jar
java -cp "$jar:$root/orchestrator/target/test-classes" io.tunelab.results.ScaleDatabase \
  "$db" "$cells" "$reps" 2
samples=$(java -jar "$jar" query --db "$db" --format csv \
  "SELECT count(*) FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.experiment_id = 1" |
  tail -n 1)
printf 'database: %s MiB, %s samples per experiment\n\n' "$(($(stat -c %s "$db") / 1048576))" "$samples"

# run LABEL [-Xmx64m] TUNELAB-ARGUMENTS…: prints wall time, peak RSS and output size
run() {
  label=$1
  shift
  opts=
  if [ "${1:-}" = "-Xmx64m" ]; then opts=$1; shift; fi
  code=0
  TUNELAB_JAVA_OPTS=$opts /usr/bin/time -f '%e %M %U %S' -o "$dir/time" "$root/tunelab" "$@" --db "$db" \
    >"$dir/out" 2>"$dir/err" || code=$?
  read -r secs kb user sys <"$dir/time"
  last_cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  if [ "$code" -ne 0 ]; then
    echo "$label: exit $code: $(tail -n 3 "$dir/err")" >&2
  fi
  printf '%-40s %7s s  %5s MiB peak RSS  %8s KiB out  %6s s CPU\n' "$label" "$secs" "$((kb / 1024))" \
    "$(($(stat -c %s "$dir/out") / 1024))" "$last_cpu"
  last_secs=$secs
}

run "report (classic text)" report 1
report_secs=$secs report_cpu=$last_cpu
run "report --format json" report 1 --format json
run "report --rows bs --cols case" report 1 --rows bs --cols case
run "report --html" report 1 --html "$dir/report.html"
run "compare 1 2 (10,000 rows)" compare 1 2
compare_secs=$secs compare_cpu=$last_cpu
run "compare 1 2 --format json" compare 1 2 --format json
run "compare --axis case=case-0,case-1" compare 2 --axis case=case-0,case-1
# throughput FILE: samples per second and MiB per second of the last run
throughput() {
  printf '%-40s %7s samples/s, %s MiB/s written\n' "  throughput" \
    "$(awk -v n="$samples" -v s="$last_secs" 'BEGIN { printf "%.0f", n / s }')" \
    "$(awk -v b="$(stat -c %s "$1")" -v s="$last_secs" 'BEGIN { printf "%.1f", b / s / 1048576 }')"
}
run "export --format csv" export 1 --format csv --output "$dir/export.csv"
throughput "$dir/export.csv"
run "export --format jsonl" export 1 --format jsonl --output "$dir/export.jsonl"
throughput "$dir/export.jsonl"
run "export --format csv, -Xmx64m" -Xmx64m export 1 --format csv --output "$dir/export.csv"
throughput "$dir/export.csv"
run "export --format json to stdout, -Xmx64m" -Xmx64m export 1 --format json
throughput "$dir/out"

# The two figures docs/performance.md lists first.
printf '\nreport 1: %s s (%s s CPU);  compare 1 2: %s s (%s s CPU)\n' \
  "$report_secs" "$report_cpu" "$compare_secs" "$compare_cpu"

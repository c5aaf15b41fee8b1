#!/bin/sh
# Benchmark: the controller's own work, in one JVM, with no host, no root and no lab:
#  - expanding a matrix of 100,000 combinations (93,750 cells after its exclude) and building
#    a shuffled plan of 100,000 cells x 3 repetitions (io.tunelab.plan.PlanningBench);
#  - a line sent and answered on an open SSH channel, and an agent `hello` over one SSH
#    session, against the tests' in-process SSH server on loopback
#    (io.tunelab.remote.SshRoundTripBench).
# Prints the first (cold) round apart and then median, min, max and mean in milliseconds.
# It asserts nothing: the unit tests check what these produce, this prints how fast.
# Usage: bench/controller.sh [ROUNDS [ROUND_TRIPS]]     (default 10 1000)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-10}
trips=${2:-1000}
case $rounds$trips in *[!0-9]*) echo "usage: bench/controller.sh [ROUNDS [ROUND_TRIPS]]" >&2; exit 2 ;; esac
command -v ssh-keygen >/dev/null 2>&1 || { echo "controller.sh: needs ssh-keygen (openssh-client)" >&2; exit 2; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT

"$root/tunelab" --version >/dev/null # build the jar outside the measurement
(cd "$root" && mvn -o -B -q -DskipTests test-compile -pl orchestrator -am >"$log" 2>&1) ||
  { cat "$log" >&2; exit 4; }
cp="$root/orchestrator/target/tunelab.jar:$root/orchestrator/target/test-classes"

printf 'controller.sh: %s cores, load %s, %s\n\n' "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" \
  "$(date -u +%FT%TZ)"
# the launcher's JVM options, so the figures are those of what users run
java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$cp" io.tunelab.plan.PlanningBench "$rounds"
java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$cp" io.tunelab.remote.SshRoundTripBench "$trips"

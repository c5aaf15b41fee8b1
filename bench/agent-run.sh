#!/bin/bash
# bench/agent-run.sh [RUNS [SHELL [GAP]]] — what one agent `run` costs on this host, alone.
#
# Starts one `serve` of the agent on this host (SHELL, default dash; its own state
# directory under a temp dir) and sends it RUNS requests `run` of `sh -c true` with a
# `health` line, as a trial without knobs sends them: no SSH, no controller, no database.
# Between an answer and the next request it waits GAP milliseconds (default 4: what the
# controller takes to store a trial and send the next one), as the agent's work after an
# answer runs meanwhile. AGENT_RUN_SCRIPT names another assembled agent to time instead
# (to compare two versions on the same host).
# Prints the median, min and max time from sending a request to reading its status line
# (the first request left out), and the CPU time of the serve and every process it
# reaped (utime + stime + cutime + cstime of the serve, from /proc/PID/stat) per run.
# Needs bash (for $EPOCHREALTIME), Maven (it assembles the agent first) and SHELL; not
# root. It writes nothing outside its temp dir and ends the serve it started.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd -P)
RUNS=${1:-40}
SHELL_NAME=${2:-dash}
GAP=${3:-4}

die() {
  printf 'agent-run: %s\n' "$*" >&2
  exit 1
}

case $RUNS in '' | *[!0-9]*) die "RUNS must be a number, not '$RUNS'" ;; esac
[ "$RUNS" -ge 3 ] || die "RUNS must be at least 3"
case $GAP in '' | *[!0-9]*) die "GAP must be a number of milliseconds, not '$GAP'" ;; esac
command -v "$SHELL_NAME" >/dev/null 2>&1 || die "no $SHELL_NAME on this host"

dir=$(mktemp -d)
serve_pid=
finish() {
  exec 3>&- 4<&- 5<&- 2>/dev/null || true
  if [ -n "$serve_pid" ]; then
    # The serve exits when its input ends; it is ended only if it has not within 5 s.
    for _ in $(seq 50); do
      kill -0 "$serve_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill "$serve_pid" 2>/dev/null || true
  fi
  rm -rf "$dir"
}
trap finish EXIT

(cd "$root" && mvn -o -B -q -pl agents generate-resources >"$dir/build.log" 2>&1) ||
  die "building the agent failed: $(tail -n 20 "$dir/build.log")"
agent=${AGENT_RUN_SCRIPT:-$root/agents/target/generated-resources/agent/io/tunelab/agents/tunelab-agent.sh}
[ -f "$agent" ] || die "no $agent"

mkdir -m 0700 "$dir/state"
mkfifo "$dir/in" "$dir/out" "$dir/gap"
TUNELAB_STATE=$dir/state "$SHELL_NAME" "$agent" serve <"$dir/in" >"$dir/out" 2>"$dir/serve.err" &
serve_pid=$!
exec 3>"$dir/in" 4<"$dir/out" 5<>"$dir/gap"
gap_s=$(printf '0.%03d' "$GAP")
[ "$GAP" -lt 1000 ] || gap_s=$((GAP / 1000))

# Sends a request (its lines as arguments) and reads up to its status line.
request() {
  printf '%s\n' "$@" >&3
  local line
  while IFS= read -r line <&4; do
    case $line in
      '$ 0'*) return 0 ;;
      '$ '*) die "the agent answered '$line': $(tail -n 5 "$dir/serve.err")" ;;
    esac
  done
  die "the agent ended: $(tail -n 5 "$dir/serve.err")"
}

# utime + stime + cutime + cstime of the serve, in clock ticks.
cpu_ticks() {
  local stat
  read -r stat <"/proc/$serve_pid/stat"
  # shellcheck disable=SC2086 # the fields after the command name, split on blanks
  set -- ${stat##*) }
  echo $((${12} + ${13} + ${14} + ${15}))
}

request "hello 0 0"
tab=$'\t'
ticks_before=$(cpu_ticks)
times=()
for i in $(seq 1 "$RUNS"); do
  t0=$EPOCHREALTIME
  request "run 6 $i" health "job${tab}w" "arg${tab}sh" "arg${tab}-c" "arg${tab}true" "timeout${tab}60"
  t1=$EPOCHREALTIME
  times+=("$((${t1/./} - ${t0/./}))")
  # Nobody writes to the gap FIFO: the read waits out its timeout, with no fork.
  [ "$GAP" = 0 ] || read -r -t "$gap_s" -u 5 _ || true
done
ticks_after=$(cpu_ticks)
hz=$(getconf CLK_TCK)

printf '%s\n' "${times[@]:1}" | sort -n | awk -v shell="$SHELL_NAME" -v gap="$GAP" '
  { t[NR] = $1 / 1000 }
  END { printf "%s: one run of sh -c true with health: median %.1f ms, min %.1f, max %.1f (%d runs, %d ms apart)\n",
    shell, t[int((NR + 1) / 2)], t[1], t[NR], NR, gap }'
awk -v t="$((ticks_after - ticks_before))" -v hz="$hz" -v n="$RUNS" \
  'BEGIN { printf "CPU time of the serve and what it reaped: %.1f ms per run\n", t * 1000 / hz / n }'
printf '(load average %s, %s CPUs)\n' "$(cut -d' ' -f1-3 /proc/loadavg)" "$(nproc)"

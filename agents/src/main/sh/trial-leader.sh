# shellcheck shell=sh
# ---------------------------------------------------------------------------
# A trial: `setsid sh tunelab-agent.sh __trial JOBS`, the leader of the request's process
# group, forked before its trial is known (leader_fork); the trial's line then gives N
# jobs, M monitors (a job's own timeout and duration, in its directory, win over TIMEOUT
# and DURATION; GRACE "" is STOP_GRACE). It ignores TERM and INT itself, so a signal sent
# to the whole group reaches the workloads and the trial lives on to record what happened.
# Its barrier is a FIFO: every job blocks reading it until the leader closes the only
# writer, so all are released at once and nothing polls meanwhile.
#
# It comes right after the prelude and its own helpers, and its entry point ends this
# module: a shell reads and runs a script one command at a time, so the leader of every
# trial exits before it parses the agent's start-up and verbs.

# What the agent keeps of each output stream of a job or monitor (docs/agent.md, "Output
# caps"): a line beyond OUTPUT_LINE_CAP bytes is cut there, and a stream stops being kept
# at OUTPUT_STREAM_CAP bytes; the answer marks both (job_lines). The workload itself goes on
# writing. A fio JSON document or a dd summary is far below both; the state directory
# (tmpfs) cannot fill however much a workload prints, and an escaped line (4 bytes per
# control character at most) stays below the controller's 1 MiB.
OUTPUT_LINE_CAP=65536
OUTPUT_STREAM_CAP=4194304
# Seconds a process a workload left running with its output open has between TERM and
# KILL (streams_guard).
OUTPUT_GRACE=2
# The unit of `ulimit -f`: 512 bytes in dash and a POSIX shell, 1024 in bash outside POSIX
# mode.
FSIZE_UNIT=512
# shellcheck disable=SC3028 # bash's own variable, read only under bash
case ${BASH_VERSION:-}:${SHELLOPTS:-} in
  :* | *:*posix*) ;;
  *) FSIZE_UNIT=1024 ;;
esac

# Starts the keeper of stream $1 (DIR/out or DIR/err) in the background: one cut that reads
# $1.fifo and writes its lines into $1 cut at OUTPUT_LINE_CAP + 1 bytes (constant memory
# however long a line is), under a file size limit of OUTPUT_STREAM_CAP. Past the limit
# every write fails (EFBIG, SIGXFSZ ignored) and the cut reads on to the end of the stream,
# so the workload is neither blocked nor signalled. One process per stream, since each one
# more costs every trial a fork and an exec; the marks are the answer's (job_lines). Sets
# KEEPER_PID.
stream_keep() {
  (
    trap - TERM
    trap '' XFSZ
    exec 3<&- 4>&- 5>&- 6<&- 7>&- 8<&- 9>&-
    ulimit -f $((OUTPUT_STREAM_CAP / FSIZE_UNIT)) 2>/dev/null
    exec cut -b "1-$((OUTPUT_LINE_CAP + 1))" <"$1.fifo" >"$1" 2>/dev/null
  ) &
  KEEPER_PID=$!
}

# Waits for the keepers of directory $1 (their pids: the rest of the arguments) once its
# workload has ended. Should a cut still read then, streams_guard sees to their end.
streams_end() {
  se_dir=$1
  shift
  se_guard=
  # A keeper still runs while its stdin is open: one stat each, where reading its stat
  # line costs a read(2) per byte.
  if [ -e "/proc/$1/fd/0" ] || [ -e "/proc/$2/fd/0" ]; then
    : >"$se_dir/guard"
    : >"$se_dir/guard.done"
    (
      trap - TERM
      exec 3<&- 4>&- 5>&- 6<&- 7>&- 8<&- 9>&-
      streams_guard "$se_dir" "$@"
    ) >/dev/null 2>&1 &
    se_guard=$!
  fi
  wait "$@"
  [ -n "$se_guard" ] || return 0
  # The guard ends by itself once it sees guard.done after a sleep; the sleep it waits in
  # is cut short. Nothing of it is left in the trial's group.
  printf 'done\n' >"$se_dir/guard.done"
  first_line "$se_dir/guard"
  [ -z "$FIRST_LINE" ] || kill -s TERM "$FIRST_LINE" 2>/dev/null
  wait "$se_guard"
  return 0
}

# Sleeps $2 seconds with the sleep's pid in $1/guard; false when the keepers of $1 have
# ended (guard.done), before or after.
guard_sleep() {
  [ ! -s "$1/guard.done" ] || return 1
  sleep "$2" &
  printf '%s\n' "$!" >"$1/guard"
  wait "$!"
  [ ! -s "$1/guard.done" ]
}

# The cuts of $1 (their pids: the rest of the arguments) still read a moment after its
# workload ended: what else holds its streams open is a process the workload left running,
# which the trial would end anyway (trial_end). It is ended now (TERM, KILL after
# OUTPUT_GRACE s), so that its output reaches the keepers; as a last resort the cuts are
# ended after as long again.
streams_guard() {
  guard_sleep "$1" 0.1 || return 0
  sg_dir=$1
  shift
  sg_cuts=" $* "
  sg_holders=
  sg_fds=$(find /proc/[0-9]*/fd -lname "$sg_dir/*.fifo" 2>/dev/null)
  # shellcheck disable=SC2086 # /proc/PID/fd/N paths
  set -- $sg_fds
  for sg_fd in "$@"; do
    sg_pid=${sg_fd#/proc/}
    sg_pid=${sg_pid%%/*}
    case $sg_cuts$sg_holders in
      *" $sg_pid "*) ;;
      *) sg_holders="$sg_holders$sg_pid " ;;
    esac
  done
  # shellcheck disable=SC2086 # a list of pids
  signal_all TERM $sg_holders
  guard_sleep "$sg_dir" "$OUTPUT_GRACE" || return 0
  # shellcheck disable=SC2086 # a list of pids
  signal_all KILL $sg_holders
  guard_sleep "$sg_dir" "$OUTPUT_GRACE" || return 0
  # shellcheck disable=SC2086 # a list of pids
  signal_all TERM $sg_cuts
}

# Gives this process (a job, before it execs) the job's nice, ionice and cpus, and reads
# back what it really has into $1/sched as "NICE<TAB>CPUS<TAB>IONICE". A nice or ionice
# the host refuses is left as it was (the read-back shows it); a CPU list it refuses
# fails the job.
job_setup() {
  js_dir=$1
  if [ ! -s "$js_dir/nice" ] && [ ! -s "$js_dir/ionice" ] && [ ! -s "$js_dir/cpus" ]; then
    # Nothing asked: the job has what the agent has, inherited through every fork, which
    # the agent read once ($JOBS_DIR/sched): no byte-by-byte reads of /proc (~1,600 read(2)).
    first_line "$JOBS_DIR/sched"
    printf '%s\n' "$FIRST_LINE" >"$js_dir/sched"
    return 0
  fi
  IFS= read -r js_stat </proc/self/stat
  js_self=${js_stat%% *}
  js_rc=0
  if [ -s "$js_dir/nice" ]; then
    first_line "$js_dir/nice"
    renice -n "$FIRST_LINE" -p "$js_self" >/dev/null 2>>"$js_dir/setup.err"
  fi
  if [ -s "$js_dir/ionice" ]; then
    first_line "$js_dir/ionice"
    case $FIRST_LINE in
      idle) set -- -c 3 ;;
      be/*) set -- -c 2 -n "${FIRST_LINE#be/}" ;;
      *) set -- -c 1 -n "${FIRST_LINE#rt/}" ;;
    esac
    ionice -t "$@" -p "$js_self" 2>>"$js_dir/setup.err"
  fi
  if [ -s "$js_dir/cpus" ]; then
    first_line "$js_dir/cpus"
    taskset -pc "$FIRST_LINE" "$js_self" >/dev/null 2>>"$js_dir/setup.err" || js_rc=1
  fi
  self_sched "$js_self"
  if [ -s "$js_dir/ionice" ]; then
    js_io=$(ionice -p "$js_self" 2>/dev/null) || js_io=
  else
    # Unchanged since the fork: the agent's own class, which it read once ($JOBS_DIR/io).
    first_line "$JOBS_DIR/io"
    js_io=$FIRST_LINE
  fi
  printf '%s\t%s\t%s\n' "$SELF_NICE" "$SELF_CPUS" "$js_io" >"$js_dir/sched"
  return "$js_rc"
}

# Sets SELF_NICE and SELF_CPUS (its allowed CPU list) of this process, pid $1, from /proc.
self_sched() {
  SELF_NICE=
  proc_stat "$1" && SELF_NICE=$PS_NICE
  SELF_CPUS=
  while IFS= read -r ss_line; do
    case $ss_line in
      Cpus_allowed_list:*)
        SELF_CPUS=${ss_line#*:}
        SELF_CPUS=${SELF_CPUS#"${SELF_CPUS%%[!"$TAB "]*}"}
        break
        ;;
    esac
  done </proc/self/status
}

# Sets CLOCK_NS to the host's clock in nanoseconds since the epoch. With the agent's offset
# ($JOBS_DIR/clock, clock_offset) it is the kernel's monotonic clock plus that offset: a
# builtin read, no fork (a fork+exec of date costs a small VM 1.5-3 ms, twice a job);
# without one, date +%s%N. $1: the kind a job's start was read with ("" to choose), so
# that its end comes from the same clock; status 1 when that clock cannot be read now.
clock_ns() {
  CLOCK_KIND="date"
  if [ "${1:-mono}" = mono ]; then
    first_line "$JOBS_DIR/clock"
    if [ -n "$FIRST_LINE" ] && mono_ns; then
      CLOCK_KIND="mono"
      CLOCK_NS=$((MONO_NS + FIRST_LINE))
      return 0
    fi
    [ -z "${1:-}" ] || return 1
  fi
  CLOCK_NS=$(date +%s%N)
}

# One job: load argv, set it up, wait at the barrier, time the workload. With $3 = alone
# the trial's leader runs its only job itself (no monitor, no duration): it tells the
# agent it is ready and waits for the release on the leader's own FIFOs, one fork and
# the barrier fewer.
run_job() {
  rj_dir=$1
  first_line "$rj_dir/timeout"
  rj_timeout=${FIRST_LINE:-$2}
  rj_alone=${3:-}
  if [ -z "$rj_alone" ]; then
    # Keep only the ready queue's writer: the leader's FIFO ends must not live here.
    exec 3<&- 4>&- 7>&- 8<&- 9>&-
    exec 6<"$JOBS_DIR/barrier"
  fi
  rj_setup=0
  job_setup "$rj_dir" || rj_setup=1
  set --
  while IFS= read -r rj_word || [ -n "$rj_word" ]; do
    set -- "$@" "$rj_word"
  done <"$rj_dir/argv"
  rj_in=/dev/null
  [ ! -s "$rj_dir/stdin" ] || rj_in=$rj_dir/stdin
  # The keepers wait for their writer in open(2): started before the release, they cost
  # the workload's start nothing. A leader's only job has those it started ahead.
  if [ -n "$rj_alone" ] && [ -n "$LEADER_KEEPERS" ]; then
    rj_keepers=$LEADER_KEEPERS
    LEADER_KEEPERS=
  else
    stream_keep "$rj_dir/out"
    rj_keepers=$KEEPER_PID
    stream_keep "$rj_dir/err"
    rj_keepers="$rj_keepers $KEEPER_PID"
  fi
  if [ -n "$rj_alone" ]; then
    exec 4>&-
    IFS= read -r rj_word <&3
    exec 3<&-
  else
    printf 'ready\n' >&5
    exec 5>&-
  fi
  if [ "$rj_setup" = 1 ]; then
    # Its CPU list was refused: the job cannot run as asked.
    # shellcheck disable=SC2086 # two pids
    job_unkept "$rj_dir" $rj_keepers
    printf '125\n' >"$rj_dir/rc"
    return 0
  fi
  if [ -z "$rj_alone" ]; then
    IFS= read -r rj_word <&6
    exec 6<&-
  fi
  if [ ! -s "$JOBS_DIR/go" ] || [ -s "$JOBS_DIR/cancel" ]; then
    # shellcheck disable=SC2086 # two pids
    job_unkept "$rj_dir" $rj_keepers
    printf '130\n' >"$rj_dir/rc"
    return 0
  fi
  clock_ns
  rj_clock=$CLOCK_KIND
  printf '%s\n' "$CLOCK_NS" >"$rj_dir/start"
  # The env lines are exported in the workload's own process, so they cannot clobber
  # this function's variables; "$@" is never parsed by a shell. timeout is the watchdog
  # (its timer dies with it: no sleeping process) and, because it catches INT and TERM,
  # gives the workload their default actions, which a backgrounded shell command (INT)
  # or a child of this trial (TERM) would not have.
  (
    # A leader running its job alone still holds its FIFO ends: never the workload's.
    exec 3<&- 4>&- 7>&- 8<&-
    while IFS= read -r rj_kv || [ -n "$rj_kv" ]; do
      export "${rj_kv?}"
    done <"$rj_dir/env"
    exec timeout --foreground -k 2 "$rj_timeout" "$@"
  ) <"$rj_in" >"$rj_dir/out.fifo" 2>"$rj_dir/err.fifo" &
  rj_pid=$!
  printf '%s\n' "$rj_pid" >"$rj_dir/pid"
  # With its start time: a cancel must never signal a later process that got the number.
  if proc_stat "$rj_pid"; then
    printf '%s %s\n' "$rj_pid" "$PS_START" >>"$JOBS_DIR/pids"
  fi
  wait "$rj_pid"
  rj_rc=$?
  if ! clock_ns "$rj_clock"; then
    first_line "$rj_dir/start"
    CLOCK_NS=$FIRST_LINE
  fi
  printf '%s\n' "$CLOCK_NS" >"$rj_dir/end"
  # shellcheck disable=SC2086 # two pids
  streams_end "$rj_dir" $rj_keepers
  if [ "$rj_rc" = 137 ] && [ "$rj_timeout" != 0 ]; then
    # The workload outlived TERM at the deadline and was killed 2 s later.
    first_line "$rj_dir/start"
    rj_start=$FIRST_LINE
    first_line "$rj_dir/end"
    to_ns "$rj_timeout"
    [ $((FIRST_LINE - rj_start)) -lt "$NANOSECONDS" ] || rj_rc=124
  fi
  printf '%s\n' "$rj_rc" >"$rj_dir/rc"
}

# A job that never started: its keepers get their end of file, with nothing kept.
job_unkept() {
  : >"$1/out.fifo"
  : >"$1/err.fifo"
  shift
  wait "$@"
}

# A monitor ($1: its directory) runs until the leader sends TERM, which it must not
# ignore as the leader does.
monitor_start() {
  ms_dir=$1
  stream_keep "$ms_dir/out"
  printf '%s\n' "$KEEPER_PID" >"$ms_dir/keepers"
  stream_keep "$ms_dir/err"
  printf '%s\n' "$KEEPER_PID" >>"$ms_dir/keepers"
  (
    trap - TERM
    exec 3<&- 4>&- 5>&- 7>&- 8<&- 9>&-
    while IFS= read -r ms_kv || [ -n "$ms_kv" ]; do
      export "${ms_kv?}"
    done <"$ms_dir/env"
    set --
    while IFS= read -r ms_word || [ -n "$ms_word" ]; do
      set -- "$@" "$ms_word"
    done <"$ms_dir/argv"
    exec "$@"
  ) </dev/null >"$ms_dir/out.fifo" 2>"$ms_dir/err.fifo" &
  printf '%s\n' "$!" >"$ms_dir/pid"
}

trial_main() {
  JOBS_DIR=$1
  JOB_COUNT=$2
  MONITOR_COUNT=$3
  tm_timeout=$4
  tm_duration=$5
  tm_grace=${6:-$STOP_GRACE}
  trap '' TERM HUP
  # The agent's FIFOs: "open" ends at go (or when the trial is called off), "end" at its
  # stop. Opened for reading while the inherited writers still exist, so the
  # opens never block; then those inherited writers are dropped.
  exec 3<"$JOBS_DIR/open" 8<"$JOBS_DIR/end"
  exec 7>&- 6>&-
  # "done" (inherited on 5): its writer moves to 7, and closing it tells the agent's wait.
  exec 7>&5 5>&-
  first_line "$JOBS_DIR/1/duration"
  if [ "$JOB_COUNT" = 1 ] && [ "$MONITOR_COUNT" = 0 ] && [ "${FIRST_LINE:-$tm_duration}" = 0 ]; then
    # The shells print "Terminated" when a workload is killed: keep it off our stderr.
    run_job "$JOBS_DIR/1" "$tm_timeout" alone 2>"$JOBS_DIR/1/agent.err"
    # Tells the agent: the job has ended.
    exec 7>&- 8<&-
    exit 0
  fi
  # The first job's keepers started ahead belong to this process, not to a job's: ended.
  keepers_release
  exec 9<>"$JOBS_DIR/barrier" 5<>"$JOBS_DIR/readyq"
  tm_wrappers=
  tm_i=1
  while [ "$tm_i" -le "$JOB_COUNT" ]; do
    # The shells print "Terminated" when a workload is killed: keep it off our stderr.
    run_job "$JOBS_DIR/$tm_i" "$tm_timeout" 2>"$JOBS_DIR/$tm_i/agent.err" &
    printf '%s\n' "$!" >"$JOBS_DIR/$tm_i/wrapper"
    tm_wrappers="$tm_wrappers $!"
    tm_i=$((tm_i + 1))
  done
  # Every job writes a line when it waits at the barrier and closes its end of the queue;
  # end of file once all have (or died).
  exec 6<"$JOBS_DIR/readyq" 5>&-
  while IFS= read -r _ <&6; do :; done
  exec 6<&-
  # Tells the agent: every process waits at the barrier.
  exec 4>&-
  IFS= read -r _ <&3
  exec 3<&-
  tm_go=0
  if [ -s "$JOBS_DIR/go" ] && [ ! -s "$JOBS_DIR/cancel" ]; then
    tm_go=1
    [ "$MONITOR_COUNT" = 0 ] || monitors_snap begin
    tm_i=1
    while [ "$tm_i" -le "$MONITOR_COUNT" ]; do
      monitor_start "$JOBS_DIR/m$tm_i"
      tm_i=$((tm_i + 1))
    done
  fi
  # The barrier opens (called off without "go" in $JOBS_DIR/go).
  exec 9>&-
  TIMERS=
  [ "$tm_go" = 0 ] || [ -z "$tm_wrappers" ] || timers_start "$tm_duration" "$tm_grace"
  # shellcheck disable=SC2086 # a list of pids
  [ -z "$tm_wrappers" ] || wait $tm_wrappers
  # shellcheck disable=SC2086 # a list of pids
  [ -z "$TIMERS" ] || kill -s TERM $TIMERS 2>/dev/null
  # Tells the agent: every job has ended.
  exec 7>&-
  # Monitors run on until the agent's stop: the other hosts' jobs may still run.
  [ "$MONITOR_COUNT" = 0 ] || IFS= read -r _ <&8
  exec 8<&-
  [ "$tm_go" = 0 ] || [ "$MONITOR_COUNT" = 0 ] || monitors_snap end
  tm_i=1
  while [ "$tm_i" -le "$MONITOR_COUNT" ]; do
    first_line "$JOBS_DIR/m$tm_i/pid"
    [ -z "$FIRST_LINE" ] || kill -s TERM "$FIRST_LINE" 2>/dev/null
    tm_i=$((tm_i + 1))
  done
  tm_i=1
  while [ "$tm_i" -le "$MONITOR_COUNT" ]; do
    first_line "$JOBS_DIR/m$tm_i/pid"
    if [ -n "$FIRST_LINE" ]; then
      wait "$FIRST_LINE"
      tm_rc=$?
      tm_keepers=
      while IFS= read -r tm_pid; do
        tm_keepers="$tm_keepers $tm_pid"
      done <"$JOBS_DIR/m$tm_i/keepers"
      # shellcheck disable=SC2086 # two pids
      streams_end "$JOBS_DIR/m$tm_i" $tm_keepers
      printf '%s\n' "$tm_rc" >"$JOBS_DIR/m$tm_i/rc"
    fi
    tm_i=$((tm_i + 1))
  done
  # What the workloads left running is ended by the agent once this leader has exited.
  exit 0
}

# The keepers of the first job's streams, started while the leader waits for its trial:
# a trial of one job (the most common) then forks only its workload. LEADER_KEEPERS: their
# pids.
LEADER_KEEPERS=
keepers_ahead() {
  [ -p "$JOBS_DIR/1/out.fifo" ] && [ -p "$JOBS_DIR/1/err.fifo" ] || return 0
  stream_keep "$JOBS_DIR/1/out"
  LEADER_KEEPERS=$KEEPER_PID
  stream_keep "$JOBS_DIR/1/err"
  LEADER_KEEPERS="$LEADER_KEEPERS $KEEPER_PID"
}

# Ends the keepers started ahead that no job took. Killed: one may not have reached its open
# of the FIFO yet, and would then wait there for a writer that never comes; none has
# written anything.
keepers_release() {
  [ -n "$LEADER_KEEPERS" ] || return 0
  # shellcheck disable=SC2086 # two pids
  kill -s KILL $LEADER_KEEPERS 2>/dev/null
  # shellcheck disable=SC2086 # two pids
  wait $LEADER_KEEPERS
  LEADER_KEEPERS=
}

if [ "${1:-}" = __trial ]; then
  [ $# -eq 2 ] || exit 2
  JOBS_DIR=$2
  keepers_ahead
  # Forked ahead (leader_fork): its trial comes as one line on fd 3, "N M TIMEOUT DURATION
  # GRACE" ("-": no grace of its own). End of file: the agent dropped it or is gone.
  if ! IFS=' ' read -r tl_jobs tl_monitors tl_timeout tl_duration tl_grace <&3; then
    keepers_release
    exit 0
  fi
  [ "$tl_grace" != - ] || tl_grace=
  trial_main "$2" "$tl_jobs" "$tl_monitors" "$tl_timeout" "$tl_duration" "$tl_grace"
fi

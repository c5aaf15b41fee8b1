# shellcheck shell=sh
# ---------------------------------------------------------------------------
# A trial from the agent's side: its jobs/ directory claimed, its payload read into
# it, its leader started up to the barrier and released.

# Claims $JOBS_DIR for this agent, unless a live agent's run holds it. Sets JOBS_FRESH to 1
# when it was made anew (its FIFOs are still to be made), 0 when this agent's last trial
# left it.
jobs_claim() {
  # The last trial of this agent ended cleanly and left nobody behind: its directory, FIFOs
  # and job directories serve again, emptied of what the files' presence or size says, so
  # a trial costs no mkdir, mkfifo or rm on the way.
  if [ "$JOBS_KEPT" = 1 ] && [ -d "$JOBS_DIR" ] && [ ! -h "$JOBS_DIR" ]; then
    JOBS_KEPT=0
    first_line "$JOBS_DIR/owner"
    if [ "$FIRST_LINE" = "$$ $AGENT_START" ]; then
      JOBS_FRESH=0
      : >"$JOBS_DIR/pids"
      : >"$JOBS_DIR/go"
      : >"$JOBS_DIR/cancel"
      : >"$JOBS_DIR/trial.err"
      return 0
    fi
  fi
  JOBS_KEPT=0
  JOBS_FRESH=1
  # A leader forked ahead holds the FIFOs of the directory and has keepers waiting in them:
  # ended before the directory goes.
  leader_drop
  if ! mkdir "$JOBS_DIR" 2>/dev/null; then
    first_line "$JOBS_DIR/owner"
    # shellcheck disable=SC2086 # "PID START"
    if [ -n "$FIRST_LINE" ] && [ "${FIRST_LINE%% *}" != "$$" ] && alive $FIRST_LINE; then
      err "$1: another run is in progress (agent pid ${FIRST_LINE%% *})"
      return 3
    fi
    rm -rf "$JOBS_DIR"
    mkdir "$JOBS_DIR" || return 3
  fi
  printf '%s %s\n' "$$" "$AGENT_START" >"$JOBS_DIR/owner"
  : >"$JOBS_DIR/pids"
  : >"$JOBS_DIR/go"
  : >"$JOBS_DIR/cancel"
}

# Reads a run/start payload into $JOBS_DIR: one directory per job ($JOBS_DIR/1 …) and per
# monitor ($JOBS_DIR/m1 …), a job's own job_timeout and job_duration as its timeout and
# duration; sets JOB_COUNT, MONITOR_COUNT, TRIAL_TIMEOUT, TRIAL_DURATION, TRIAL_GRACE
# (empty: the agent's STOP_GRACE), TRIAL_HEALTH (1: snapshots before and after,
# trial_health) and TRIAL_CHECKS (the knob paths the after-snapshot reads back, one a
# line). Status 2 when the payload is malformed ($1: the verb, for messages).
trial_parse() {
  JOB_COUNT=0
  MONITOR_COUNT=0
  TRIAL_TIMEOUT=0
  TRIAL_DURATION=0
  TRIAL_GRACE=
  TRIAL_HEALTH=0
  TRIAL_CHECKS=
  tp_bad=0
  tp_dir=
  tp_names=$NL
  payload_load
  tp_all=$PAYLOAD
  while [ -n "$tp_all" ]; do
    tp_line=${tp_all%%"$NL"*}
    tp_all=${tp_all#*"$NL"}
    tp_value=${tp_line#*"$TAB"}
    case $tp_line in
      "") continue ;;
      health) TRIAL_HEALTH=1 ;;
      "check$TAB"/*) TRIAL_CHECKS=$TRIAL_CHECKS$tp_value$NL ;;
      "job$TAB"* | "monitor$TAB"*)
        case $tp_value in
          "" | *[!A-Za-z0-9._:@+-]*)
            err "$1: bad job name: $tp_value"
            tp_bad=1
            tp_dir=
            continue
            ;;
        esac
        case $tp_names in
          *"$NL$tp_value$NL"*)
            err "$1: job $tp_value given twice"
            tp_bad=1
            ;;
        esac
        tp_names=$tp_names$tp_value$NL
        case $tp_line in
          job*)
            JOB_COUNT=$((JOB_COUNT + 1))
            tp_dir=$JOBS_DIR/$JOB_COUNT
            ;;
          *)
            MONITOR_COUNT=$((MONITOR_COUNT + 1))
            tp_dir=$JOBS_DIR/m$MONITOR_COUNT
            ;;
        esac
        # Its streams reach their keepers through FIFOs (stream_keep), kept with the directory.
        if [ ! -p "$tp_dir/err.fifo" ]; then
          { [ -d "$tp_dir" ] || mkdir "$tp_dir"; } &&
            mkfifo -m 0600 "$tp_dir/out.fifo" "$tp_dir/err.fifo" || return 1
        fi
        printf '%s\n' "$tp_value" >"$tp_dir/name"
        # Emptied: a kept directory holds the files of an earlier trial's job. A test of the
        # size costs one stat(2), a redirection eight system calls.
        for tp_file in argv env stdin nice ionice cpus stdout sched setup.err pid out err \
          start end rc stopped stat timeout duration; do
          if [ -s "$tp_dir/$tp_file" ] || [ ! -e "$tp_dir/$tp_file" ]; then
            : >"$tp_dir/$tp_file"
          fi
        done
        ;;
      "arg$TAB"* | "env$TAB"* | "stdin$TAB"* | "nice$TAB"* | "ionice$TAB"* | "cpus$TAB"* | "stdout$TAB"*)
        tp_key=${tp_line%%"$TAB"*}
        if [ -z "$tp_dir" ]; then
          err "$1: '$tp_key' before the first job"
          tp_bad=1
          continue
        fi
        case $tp_dir:$tp_key in
          */m*:arg | */m*:env) ;;
          */m*:*)
            err "$1: '$tp_key' is not for a monitor"
            tp_bad=1
            continue
            ;;
        esac
        case $tp_key:$tp_value in
          arg:*) printf '%s\n' "$tp_value" >>"$tp_dir/argv" ;;
          stdin:*) printf '%s\n' "$tp_value" >>"$tp_dir/stdin" ;;
          env:[A-Za-z_]*=*)
            case ${tp_value%%=*} in
              *[!A-Za-z0-9_]*)
                err "$1: bad env line (want KEY=VALUE): $tp_value"
                tp_bad=1
                ;;
              *) printf '%s\n' "$tp_value" >>"$tp_dir/env" ;;
            esac
            ;;
          nice:-[0-9] | nice:-1[0-9] | nice:-20 | nice:[0-9] | nice:1[0-9] | \
            ionice:idle | ionice:be/[0-7] | ionice:rt/[0-7] | cpus:[0-9]* | stdout:all | stdout:tail)
            case $tp_key:$tp_value in
              cpus:*[!0-9,-]*)
                err "$1: bad cpus (want a taskset list such as 0-3,6): $tp_value"
                tp_bad=1
                ;;
              *) printf '%s\n' "$tp_value" >"$tp_dir/$tp_key" ;;
            esac
            ;;
          *)
            err "$1: bad $tp_key line: $tp_value"
            tp_bad=1
            ;;
        esac
        ;;
      "timeout$TAB"* | "duration$TAB"* | "stop_grace$TAB"* | "job_timeout$TAB"* | "job_duration$TAB"*)
        tp_key=${tp_line%%"$TAB"*}
        if ! is_seconds "$tp_value"; then
          err "$1: bad $tp_key (want seconds): $tp_value"
          tp_bad=1
          continue
        fi
        case $tp_key:$tp_dir in
          timeout:*) TRIAL_TIMEOUT=$tp_value ;;
          duration:*) TRIAL_DURATION=$tp_value ;;
          stop_grace:*) TRIAL_GRACE=$tp_value ;;
          job_*: | job_*:"$JOBS_DIR/m"*)
            err "$1: '$tp_key' is for a job: give it after its job line"
            tp_bad=1
            ;;
          *) printf '%s\n' "$tp_value" >"$tp_dir/${tp_key#job_}" ;;
        esac
        ;;
      *)
        err "$1: bad payload line: $tp_line"
        tp_bad=1
        ;;
    esac
  done
  if [ "$JOB_COUNT" = 0 ] && { [ "$1" = run ] || [ "$MONITOR_COUNT" = 0 ]; }; then
    err "$1: no job given"
    tp_bad=1
  fi
  tp_i=1
  while [ "$tp_i" -le $((JOB_COUNT + MONITOR_COUNT)) ]; do
    tp_dir=$JOBS_DIR/$tp_i
    [ "$tp_i" -le "$JOB_COUNT" ] || tp_dir=$JOBS_DIR/m$((tp_i - JOB_COUNT))
    tp_i=$((tp_i + 1))
    if [ ! -s "$tp_dir/argv" ]; then
      first_line "$tp_dir/name"
      err "$1: job $FIRST_LINE has no arg line"
      tp_bad=1
    fi
  done
  [ "$tp_bad" = 0 ] || return 2
}

# Starts the trial a run/start payload describes ($1: the verb) in its own process group
# and returns once every process waits at the barrier (a run: at once). The agent keeps two FIFOs open
# for writing: closing "open" releases the barrier (or, without $JOBS_DIR/go, calls the trial
# off), closing "end" stops the monitors and ends the trial. It reads a third, "done",
# whose end of file says that every job has ended.
trial_start() {
  if [ "$AGENT_TOOLS_OK" = 0 ]; then
    if ! command -v setsid >/dev/null || ! command -v timeout >/dev/null; then
      err "$1: needs setsid (util-linux) and timeout (coreutils) on this host"
      return 3
    fi
    AGENT_TOOLS_OK=1
  fi
  jobs_claim "$1" || return $?
  trial_parse "$1"
  ts_rc=$?
  if [ "$ts_rc" != 0 ]; then
    leader_drop
    rm -rf "$JOBS_DIR"
    return "$ts_rc"
  fi
  if [ "$JOBS_FRESH" = 1 ]; then
    if ! mkfifo -m 0600 "$JOBS_DIR/params" "$JOBS_DIR/open" "$JOBS_DIR/end" \
      "$JOBS_DIR/started" "$JOBS_DIR/done" "$JOBS_DIR/barrier" "$JOBS_DIR/readyq"; then
      err "$1: cannot create the trial's FIFOs in $JOBS_DIR"
      rm -rf "$JOBS_DIR"
      return 1
    fi
    # What a job that asks for no I/O class, nice or CPUs has: the agent's own, which every
    # process of the trial inherits. Read once per agent, not once per job and trial; a
    # kept directory holds them already.
    if [ "$AGENT_IO_READ" = 0 ]; then
      AGENT_IO=$(ionice -p "$$" 2>/dev/null) || AGENT_IO=
      self_sched "$$"
      AGENT_SCHED="$SELF_NICE$TAB$SELF_CPUS$TAB$AGENT_IO"
      clock_offset
      AGENT_IO_READ=1
    fi
    printf '%s\n' "$AGENT_IO" >"$JOBS_DIR/io"
    printf '%s\n' "$CLOCK_OFFSET" >"$JOBS_DIR/clock"
    printf '%s\n' "$AGENT_SCHED" >"$JOBS_DIR/sched"
  fi
  # One forked ahead that something killed meanwhile would fail the trial: forked anew. It
  # holds "params" open while it waits; a dead one, even a zombie, holds nothing.
  if [ -n "$LEADER_PID" ] && [ ! -e "/proc/$LEADER_PID/fd/3" ]; then
    leader_drop
  fi
  [ -n "$LEADER_PID" ] || leader_fork
  printf '%s %s %s %s %s\n' "$JOB_COUNT" "$MONITOR_COUNT" "$TRIAL_TIMEOUT" "$TRIAL_DURATION" \
    "${TRIAL_GRACE:--}" >&3
  exec 3>&-
  TRIAL_PGID=$LEADER_PID
  TRIAL_PGID_START=$LEADER_START
  LEADER_PID=
  printf '%s %s\n' "$TRIAL_PGID" "$TRIAL_PGID_START" >"$JOBS_DIR/pgid"
  # The before-snapshot, first in the answer: taken while the leader sets up, before any
  # workload is released.
  [ "$TRIAL_HEALTH" = 0 ] || trial_health before
  TRIAL_WAITED=0
  if [ "$1" = run ]; then
    # A run releases its trial at once (trial_go): nobody waits for it to reach the
    # barrier, which it passes as soon as it gets there. Only the trial keeps a writer of
    # "done": end of file says every job has ended (or the trial died).
    exec 9<"$JOBS_DIR/done" 4>&- 5>&-
    return 0
  fi
  # Only the trial keeps writers of "started" and "done": end of file on each says it
  # got there (or died).
  exec 3<"$JOBS_DIR/started" 9<"$JOBS_DIR/done" 4>&- 5>&-
  await_eof 3
  exec 3<&-
  return 0
}

# Forks the leader of the next trial (trial-leader.sh): a new session and process group
# that will hold every process of the trial, so it can be ended as one (cancel, end of
# input, a later agent finding leftovers). It waits for its trial's line on "params" and
# holds the trial's FIFO ends from its birth, as the agent's read-and-write ends (so that
# no open blocks) are its writers. A serve forks it as soon as a trial's processes have
# ended (trial_end), so the fork, two execs and the shell's start-up are no part of the next
# trial's time; the agent then holds "params", "open", "end", "started" and "done" on fds 3
# to 7 until that trial.
leader_fork() {
  exec 3<>"$JOBS_DIR/params" 7<>"$JOBS_DIR/open" 6<>"$JOBS_DIR/end" 4<>"$JOBS_DIR/started" \
    5<>"$JOBS_DIR/done"
  setsid "$SELF_SH" "$0" __trial "$JOBS_DIR" \
    3<"$JOBS_DIR/params" 8>&- </dev/null >/dev/null 2>>"$JOBS_DIR/trial.err" &
  LEADER_PID=$!
  LEADER_START=
  proc_stat "$LEADER_PID" && LEADER_START=$PS_START
  # Whoever finds this agent gone ends its group with the trial's (end_leftovers).
  printf '%s %s\n' "$LEADER_PID" "$LEADER_START" >"$JOBS_DIR/leader"
}

# A leader forked ahead whose directory will not serve: the end of file on "params" ends it
# once it has ended its keepers.
leader_drop() {
  [ -n "$LEADER_PID" ] || return 0
  exec 3>&- 4>&- 5>&- 6>&- 7>&-
  wait "$LEADER_PID"
  LEADER_PID=
}

# Sets CLOCK_OFFSET to the epoch clock minus the kernel's monotonic one (mono_ns), in
# nanoseconds, read once per agent: a job's start and end are then the monotonic clock
# plus it (clock_ns), epoch nanoseconds without a date per job, their difference immune to
# a clock step. Empty where the monotonic clock cannot be read: jobs are timed by date.
clock_offset() {
  CLOCK_OFFSET=
  mono_ns || return 0
  co_before=$MONO_NS
  co_epoch=$(date +%s%N) || return 0
  mono_ns || return 0
  case $co_epoch in
    "" | *[!0-9]*) return 0 ;;
  esac
  CLOCK_OFFSET=$((co_epoch - (co_before + MONO_NS) / 2))
}

# Blocks until end of file on the FIFO open on fd $1. dash reads it with its builtin (no
# fork). bash waits for a cat instead: a signal that ends the agent meanwhile must leave its
# exit trap able to end the trial, and bash's read builtin, interrupted so, leaves later
# reads of the exit trap failing.
await_eof() {
  if [ -z "${BASH_VERSION:-}" ]; then
    while IFS= read -r _ <&"$1"; do :; done
    return 0
  fi
  case $1 in
    3) cat <&3 >/dev/null 6>&- 7>&- 8>&- 9<&- & ;;
    *) cat <&9 >/dev/null 3<&- 6>&- 7>&- 8>&- & ;;
  esac
  wait "$!"
}

# Opens the barrier: every process of the trial starts now.
trial_go() {
  printf 'go\n' >"$JOBS_DIR/go"
  exec 7>&-
}

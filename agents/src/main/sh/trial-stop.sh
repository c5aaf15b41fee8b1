# shellcheck shell=sh
# ---------------------------------------------------------------------------
# A trial's durations: each job stops at its own (its job_duration, else the trial's), with
# one timer per duration the trial's jobs have, and the stop grace after it. The trial's
# leader calls these; they come before it, since its entry point ends its own module.

# Seconds a job stopped at its duration (SIGINT) has to end before SIGKILL, unless the
# request gives its own (stop_grace): fio writes its JSON and dd its summary in well under
# a second; a process that flushes gigabytes of dirty pages on exit may need several.
STOP_GRACE=${TUNELAB_STOP_GRACE:-10}
if ! is_seconds "$STOP_GRACE"; then
  err "ignoring TUNELAB_STOP_GRACE=$STOP_GRACE (want seconds); using 10"
  STOP_GRACE=10
fi

# Starts a timer per duration among the jobs ($1: the trial's, which a job without its
# own has; 0 is none): once it has passed, SIGINT to the jobs of that duration still
# running, and $2 seconds later SIGKILL to what is left of them. Sets TIMERS to their
# pids. A duration written two ways (1 and 1.0) just gets two timers.
timers_start() {
  TIMERS=
  tt_seen=' '
  tt_i=1
  while [ "$tt_i" -le "$JOB_COUNT" ]; do
    first_line "$JOBS_DIR/$tt_i/duration"
    tt_i=$((tt_i + 1))
    tt_d=${FIRST_LINE:-$1}
    case $tt_seen in
      *" $tt_d "*) continue ;;
    esac
    tt_seen="$tt_seen$tt_d "
    [ "$tt_d" != 0 ] || continue
    (
      trap - TERM
      exec 7>&- 8<&-
      sleep "$tt_d"
      trial_stop INT "$tt_d" "$1"
      sleep "$2"
      trial_stop KILL "$tt_d" "$1"
    ) >/dev/null 2>&1 &
    TIMERS="$TIMERS $!"
  done
}

# Stops the jobs still running whose duration is $2 ($3: the trial's, for a job without
# its own): $1 INT sends SIGINT to every process of each one's workload (as Ctrl-C would;
# not to its timeout, which would arm its own KILL), KILL then kills what is left of
# those stopped. Marks each job's "stopped".
trial_stop() {
  ts_roots=
  ts_i=1
  while [ "$ts_i" -le "$JOB_COUNT" ]; do
    ts_dir=$JOBS_DIR/$ts_i
    ts_i=$((ts_i + 1))
    [ ! -s "$ts_dir/rc" ] || continue
    first_line "$ts_dir/duration"
    [ "${FIRST_LINE:-$3}" = "$2" ] || continue
    first_line "$ts_dir/pid"
    alive "$FIRST_LINE" || continue
    if [ "$1" = INT ]; then
      printf 'INT\n' >"$ts_dir/stopped"
    elif [ -s "$ts_dir/stopped" ]; then
      printf 'KILL\n' >"$ts_dir/stopped"
    else
      continue
    fi
    ts_roots="$ts_roots $FIRST_LINE"
  done
  [ -n "$ts_roots" ] || return 0
  # shellcheck disable=SC2086 # a list of pids
  descendants $ts_roots
  if [ "$1" = INT ]; then
    # shellcheck disable=SC2086 # a list of pids
    signal_all INT $DESCENDANTS
  else
    # shellcheck disable=SC2086 # a list of pids
    signal_all KILL $DESCENDANTS $ts_roots
  fi
}

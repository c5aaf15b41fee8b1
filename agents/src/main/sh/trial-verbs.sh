# shellcheck shell=sh
# ---------------------------------------------------------------------------
# The trial verbs: run, start, go, wait, stop and cancel, and what a trial answers.

# Relays a line of a workload's output inside an answer line: a backslash becomes \\ and every
# other control character but TAB becomes \xHH, so that no CR (a progress bar, a CRLF file)
# can end the answer's line early and nothing a workload prints can pose as the agent's own
# rows. The controller decodes it back to the bytes printed.
ESCAPE_AWK='
BEGIN { for (n = 1; n < 32; n++) if (n != 9) code[sprintf("%c", n)] = n; code[sprintf("%c", 127)] = 127 }
function esc(s,   out, i, c) {
  if (s !~ /[\\\001-\010\013-\037\177]/) return s
  out = ""
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c == "\\") out = out "\\\\"
    else if (c in code) out = out sprintf("\\x%02x", code[c])
    else out = out c
  }
  return out
}'

# Prints "KIND<TAB>NAME<TAB>LINE" per line of an output file its keeper wrote (stream_keep),
# escaped as ESCAPE_AWK says, with the keeper's caps marked: a line cut at OUTPUT_LINE_CAP
# ends in " [tunelab: line cut at N bytes]"; a file that reached OUTPUT_STREAM_CAP loses its
# last line when the cap fell inside it and ends with "[tunelab: output cut at N bytes: the
# rest was not kept]". All of it up to OUT_CAP lines (then that mark, and a
# "cut<TAB>NAME<TAB>DROPPED" line), or its last TAIL_LINES lines. One awk reads the file (at
# most OUTPUT_STREAM_CAP bytes). Arguments: KIND, NAME, FILE, all|tail.
job_lines() {
  [ -s "$3" ] || return 0
  BULKY_RESPONSE=1
  awk -v p="$1\\t$2\\t" -v name="$2" -v mode="$4" -v cap="$OUT_CAP" -v tail="$TAIL_LINES" \
    -v lcap="$OUTPUT_LINE_CAP" -v scap="$OUTPUT_STREAM_CAP" "$ESCAPE_AWK"'
      function emit(s) {
        if (length(s) > lcap) s = substr(s, 1, lcap) " [tunelab: line cut at " lcap " bytes]"
        if (mode != "all") ring[++lines % tail] = s
        else if (++lines <= cap) print p esc(s)
      }
      NR > 1 { emit(last) }
      { last = $0; bytes += length($0) + 1 }
      END {
        # A file without its last newline counts one byte more than it holds: the cap fell
        # inside that line.
        if (NR && bytes != scap + 1) emit(last)
        if (bytes >= scap) mark = "[tunelab: output cut at " scap " bytes: the rest was not kept]"
        if (mode == "all") {
          if (mark != "") print p mark
          if (lines > cap) printf "cut\t%s\t%d\n", name, lines - cap
          exit
        }
        if (mark != "") ring[++lines % tail] = mark
        for (i = (lines > tail ? lines - tail + 1 : 1); i <= lines; i++) print p esc(ring[i % tail])
      }' "$3"
}

# Waits until every job has ended (calling the trial off when it was never released) and
# prints what they did; status 0 when every job exited 0 or was stopped by the duration.
trial_jobs() {
  exec 7>&-
  await_eof 9
  exec 9<&-
  TRIAL_WAITED=1
  # When its last job ended, for the after-snapshot (kmsg_wait_tick).
  TRIAL_END_NS=0
  tf_rc=0
  tf_i=1
  while [ "$tf_i" -le "$JOB_COUNT" ]; do
    tf_dir=$JOBS_DIR/$tf_i
    first_line "$tf_dir/name"
    tf_name=$FIRST_LINE
    first_line "$tf_dir/rc"
    tf_jrc=${FIRST_LINE:-255}
    first_line "$tf_dir/start"
    tf_start=${FIRST_LINE:-0}
    first_line "$tf_dir/end"
    tf_end=${FIRST_LINE:-0}
    case $tf_end in
      "" | *[!0-9]*) ;;
      *) [ "$tf_end" -le "$TRIAL_END_NS" ] || TRIAL_END_NS=$tf_end ;;
    esac
    first_line "$tf_dir/stopped"
    printf 'job\t%s\t%s\t%s\t%s\n' "$tf_name" "$tf_jrc" "$tf_start" "$tf_end"
    if [ "$tf_jrc" != 0 ] && { [ "$FIRST_LINE" != INT ] || [ "$tf_jrc" = 124 ]; }; then
      tf_rc=1
    fi
    tf_i=$((tf_i + 1))
  done
  tf_i=1
  while [ "$tf_i" -le "$JOB_COUNT" ]; do
    first_line "$JOBS_DIR/$tf_i/name"
    tf_name=$FIRST_LINE
    first_line "$JOBS_DIR/$tf_i/stopped"
    [ -z "$FIRST_LINE" ] || printf 'stopped\t%s\t%s\n' "$tf_name" "$FIRST_LINE"
    first_line "$JOBS_DIR/$tf_i/sched"
    [ -z "$FIRST_LINE" ] || printf 'sched\t%s\t%s\n' "$tf_name" "$FIRST_LINE"
    tf_i=$((tf_i + 1))
  done
  tf_i=1
  while [ "$tf_i" -le "$JOB_COUNT" ]; do
    tf_dir=$JOBS_DIR/$tf_i
    first_line "$tf_dir/name"
    tf_name=$FIRST_LINE
    first_line "$tf_dir/stdout"
    job_lines out "$tf_name" "$tf_dir/out" "${FIRST_LINE:-tail}"
    job_lines err "$tf_name" "$tf_dir/setup.err" tail
    job_lines err "$tf_name" "$tf_dir/err" tail
    tf_i=$((tf_i + 1))
  done
  return "$tf_rc"
}

# Stops the monitors, waits for the trial to end and prints what the monitors did.
trial_end() {
  exec 6>&-
  wait "$TRIAL_PGID"
  # What the workloads left running (a daemonised child, a killed job's subshell, the
  # timer's sleep) is still in the trial's group: end it now, not when it pleases. The
  # leader is gone, so a signal 0 to the group (a builtin, no /proc scan) fails unless
  # something is left; the group's number cannot be reused while it has members.
  if kill -s 0 -- "-$TRIAL_PGID" 2>/dev/null; then
    group_end "$TRIAL_PGID"
  fi
  te_keep=0
  kill -s 0 -- "-$TRIAL_PGID" 2>/dev/null || te_keep=1
  TRIAL_PGID=
  te_i=1
  while [ "$te_i" -le "$MONITOR_COUNT" ]; do
    first_line "$JOBS_DIR/m$te_i/name"
    te_name=$FIRST_LINE
    first_line "$JOBS_DIR/m$te_i/rc"
    printf 'monitor\t%s\t%s\n' "$te_name" "${FIRST_LINE:-255}"
    te_i=$((te_i + 1))
  done
  te_i=1
  while [ "$te_i" -le "$MONITOR_COUNT" ]; do
    first_line "$JOBS_DIR/m$te_i/name"
    job_lines out "$FIRST_LINE" "$JOBS_DIR/m$te_i/out" all
    job_lines err "$FIRST_LINE" "$JOBS_DIR/m$te_i/err" tail
    job_lines stat "$FIRST_LINE" "$JOBS_DIR/m$te_i/stat" all
    te_i=$((te_i + 1))
  done
  if [ "$te_keep" = 1 ]; then
    # Kept for the next trial: nobody of this one is left to hold a FIFO or write a file.
    : >"$JOBS_DIR/pids"
    : >"$JOBS_DIR/pgid"
    JOBS_KEPT=1
    # The next trial's leader starts up on another CPU while this one's after-snapshot is
    # taken and its answer sent, not while the controller stores it.
    [ "$LEADER_AHEAD" = 0 ] || leader_fork
  fi
  # The after-snapshot and the knobs read back, last in the answer: every process of the
  # trial has ended.
  [ "$TRIAL_HEALTH" = 0 ] || trial_health after
  [ "$te_keep" = 1 ] || rm -rf "$JOBS_DIR"
}

verb_run() {
  if [ -n "${TRIAL_PGID:-}" ]; then
    err "run: a trial is started; stop it first"
    return 3
  fi
  trial_start run || return $?
  trial_go
  verb_stop
}

verb_start() {
  if [ -n "${TRIAL_PGID:-}" ]; then
    err "start: a trial is started already; stop it first"
    return 3
  fi
  trial_start start
}

verb_go() {
  if [ -z "${TRIAL_PGID:-}" ]; then
    err "go: no trial is started"
    return 2
  fi
  if [ -s "$JOBS_DIR/go" ]; then
    err "go: the trial is released already"
    return 2
  fi
  trial_go
}

# This host's jobs have ended: what they did. A trial without monitors ends here; one
# with monitors goes on until stop.
verb_wait() {
  if [ -z "${TRIAL_PGID:-}" ] || [ "$TRIAL_WAITED" = 1 ]; then
    err "wait: no trial is started, or its jobs were reported already"
    return 2
  fi
  trial_jobs
  vw_rc=$?
  [ "$MONITOR_COUNT" -gt 0 ] || trial_end
  return "$vw_rc"
}

# Ends the trial: what its jobs did (unless wait said it), then its monitors stopped.
verb_stop() {
  if [ -z "${TRIAL_PGID:-}" ]; then
    err "stop: no trial is started"
    return 2
  fi
  vs_rc=0
  if [ "$TRIAL_WAITED" = 0 ]; then
    trial_jobs
    vs_rc=$?
  fi
  trial_end
  return "$vs_rc"
}

# From a second, one-shot agent: stop the workloads of the run in progress.
verb_cancel() {
  [ -d "$JOBS_DIR" ] || return 0
  first_line "$JOBS_DIR/owner"
  # A jobs dir left by a dead agent lists pids that may belong to anyone by now.
  # shellcheck disable=SC2086 # "PID START"
  [ -n "$FIRST_LINE" ] && alive $FIRST_LINE || return 0
  printf 'cancel\n' >"$JOBS_DIR/cancel"
  ca_seen=' '
  ca_victims=
  ca_tries=0
  while [ -f "$JOBS_DIR/pids" ]; do
    # Re-read the pid list: a job may have passed the barrier since the last look. Each
    # line is "PID START": only a process that still started then is signalled.
    while IFS=' ' read -r ca_pid ca_start || [ -n "$ca_pid" ]; do
      case $ca_pid:$ca_start in
        "":* | *[!0-9:]* | *:) continue ;;
      esac
      case $ca_seen in
        *" $ca_pid "*) continue ;;
      esac
      ca_seen="$ca_seen$ca_pid "
      alive "$ca_pid" "$ca_start" || continue
      tree_pids "$ca_pid"
      for ca_one in $TREE_PIDS; do
        proc_stat "$ca_one" || continue
        ca_victims="$ca_victims $ca_one/$PS_START"
        kill -s TERM "$ca_one" 2>/dev/null
      done
      printf 'killed\t%s\n' "$ca_pid"
    done 2>/dev/null <"$JOBS_DIR/pids"
    # shellcheck disable=SC2086 # a list of PID/START
    victims_alive $ca_victims || break
    [ "$ca_tries" -lt 20 ] || break
    sleep 0.1
    ca_tries=$((ca_tries + 1))
  done
  for ca_one in $ca_victims; do
    ! alive "${ca_one%/*}" "${ca_one#*/}" || kill -s KILL "${ca_one%/*}" 2>/dev/null
  done
}

# True when any "PID/START" among the arguments still runs, started then.
victims_alive() {
  for va_one in "$@"; do
    alive "${va_one%/*}" "${va_one#*/}" && return 0
  done
  return 1
}

#!/bin/sh
# tunelab-agent: everything tunelab does on a host, behind one small wire protocol.
# The contract is docs/agent.md. POSIX sh (dash and bash), coreutils and util-linux.
#
#   sh tunelab-agent.sh VERB    one request: payload on stdin, plain response on stdout
#   sh tunelab-agent.sh serve   requests "VERB N [SEQ]" + N lines until stdin closes;
#                               response lines prefixed "|", closed by "$ RC [SEQ]"

AGENT_VERSION=1

# Byte semantics for sed/awk/tr, and the locale every workload runs under.
LC_ALL=C
export LC_ALL

# A literal tab: $(printf '\t') would fork in every agent process and trial leader.
TAB='	'
NL='
'

err() {
  printf 'tunelab-agent: %s\n' "$*" >&2
}

# True when $1 is seconds with an optional fraction.
is_seconds() {
  case $1 in
    "" | . | *[!0-9.]* | *.*.*) return 1 ;;
  esac
  return 0
}

# Seconds a job stopped by a trial's duration (SIGINT) has to end before SIGKILL: fio
# writes its JSON and dd its summary in well under a second; a process that flushes
# gigabytes of dirty pages on exit may need several.
STOP_GRACE=${TUNELAB_STOP_GRACE:-10}
if ! is_seconds "$STOP_GRACE"; then
  err "ignoring TUNELAB_STOP_GRACE=$STOP_GRACE (want seconds); using 10"
  STOP_GRACE=10
fi

# ---------------------------------------------------------------------------
# A trial: `setsid sh tunelab-agent.sh __trial JOBS N M TIMEOUT DURATION`, the leader of
# the request's process group: N jobs, M monitors. It ignores TERM and INT itself, so a
# signal sent to the whole group reaches the workloads and the trial lives on to record
# what happened. Its barrier is a FIFO: every job blocks reading it until the leader
# closes the only writer, so all are released at once and nothing polls meanwhile.
#
# It comes first, with the few helpers it needs, and starts before the rest is read:
# a shell reads and runs a script one command at a time, so the leader of every trial
# never parses the agent's other verbs.

# Reads the first line of a file into LINE (empty when the file is missing).
first_line() {
  LINE=
  { IFS= read -r LINE <"$1"; } 2>/dev/null
  return 0
}

# Converts seconds with an optional fraction ("0.5") to NS (nanoseconds).
to_ns() {
  tn_int=${1%%.*}
  tn_frac=
  case $1 in
    *.*) tn_frac=${1#*.} ;;
  esac
  tn_frac=${tn_frac}000000000
  tn_frac=${tn_frac%"${tn_frac#?????????}"}
  # A leading zero would make the shell read octal.
  while :; do
    case $tn_int in
      0?*) tn_int=${tn_int#0} ;;
      *) break ;;
    esac
  done
  while :; do
    case $tn_frac in
      0?*) tn_frac=${tn_frac#0} ;;
      *) break ;;
    esac
  done
  NS=$((${tn_int:-0} * 1000000000 + tn_frac))
}

# Sets PS_STATE, PS_PPID, PS_PGRP and PS_START (clock ticks after boot) of pid $1 from
# /proc; false when there is no such process. Builtins only: this runs in loops.
proc_stat() {
  case $1 in
    "" | *[!0-9]*) return 1 ;;
  esac
  PS_LINE=
  { IFS= read -r PS_LINE <"/proc/$1/stat"; } 2>/dev/null
  case $PS_LINE in
    *") "*) ;;
    *) return 1 ;;
  esac
  # shellcheck disable=SC2086 # split the numeric fields after "(comm) "
  set -- ${PS_LINE##*") "}
  [ $# -ge 20 ] || return 1
  PS_STATE=$1
  PS_PPID=$2
  PS_PGRP=$3
  PS_NICE=${17}
  PS_START=${20}
}

# True when pid $1 runs (not a zombie) and, if $2 is given, started at tick $2.
alive() {
  proc_stat "$1" || return 1
  [ "$PS_STATE" != Z ] || return 1
  [ -z "${2:-}" ] || [ "$PS_START" = "$2" ]
}

# Prints the descendants of the pids given, from /proc, breadth first (parents before
# children): one awk over every process's stat, not a fork per process.
child_pids() {
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v roots="$*" '
    $1 ~ /^[0-9]+$/ {
      rest = $0
      if (!sub(/.*\) /, "", rest)) next # drop "pid (comm) ", comm may hold spaces
      split(rest, f, " ")
      kids[f[2]] = kids[f[2]] " " $1
    }
    END {
      queue = roots
      while (queue != "") {
        n = split(queue, q, " "); queue = ""
        for (i = 1; i <= n; i++) {
          if (q[i] in kids) { out = out kids[q[i]]; queue = queue kids[q[i]] }
        }
      }
      print out
    }'
}

# Sets DS to the descendants of the pids given (not the pids themselves), from /proc.
descendants() {
  DS=
  [ $# -gt 0 ] || return 0
  ds_roots=" $* "
  ds_list=$(child_pids "$@")
  ds_seen=$ds_roots
  for ds_pid in $ds_list; do
    proc_stat "$ds_pid" || continue
    case $ds_seen in
      *" $PS_PPID "*)
        DS="$DS $ds_pid"
        ds_seen="$ds_seen$ds_pid "
        ;;
    esac
  done
}

# Sends signal $1 to every pid in the rest of the arguments that still exists.
signal_all() {
  sa_sig=$1
  shift
  for sa_pid in "$@"; do
    kill -s "$sa_sig" "$sa_pid" 2>/dev/null
  done
  return 0
}

# Gives this process (a job, before it execs) the job's nice, ionice and cpus, and reads
# back what it really has into $1/sched as "NICE<TAB>CPUS<TAB>IONICE". A nice or ionice
# the host refuses is left as it was (the read-back shows it); a CPU list it refuses
# fails the job.
job_setup() {
  js_dir=$1
  if [ ! -s "$js_dir/nice" ] && [ ! -s "$js_dir/ionice" ] && [ ! -s "$js_dir/cpus" ]; then
    # Nothing asked: the job has what the agent has, inherited through every fork, which
    # the agent read once ($J/sched): no byte-by-byte reads of /proc (~1,600 read(2)).
    first_line "$J/sched"
    printf '%s\n' "$LINE" >"$js_dir/sched"
    return 0
  fi
  IFS= read -r LINE </proc/self/stat
  js_self=${LINE%% *}
  js_rc=0
  if [ -s "$js_dir/nice" ]; then
    first_line "$js_dir/nice"
    renice -n "$LINE" -p "$js_self" >/dev/null 2>>"$js_dir/setup.err"
  fi
  if [ -s "$js_dir/ionice" ]; then
    first_line "$js_dir/ionice"
    case $LINE in
      idle) set -- -c 3 ;;
      be/*) set -- -c 2 -n "${LINE#be/}" ;;
      *) set -- -c 1 -n "${LINE#rt/}" ;;
    esac
    ionice -t "$@" -p "$js_self" 2>>"$js_dir/setup.err"
  fi
  if [ -s "$js_dir/cpus" ]; then
    first_line "$js_dir/cpus"
    taskset -pc "$LINE" "$js_self" >/dev/null 2>>"$js_dir/setup.err" || js_rc=1
  fi
  self_sched "$js_self"
  if [ -s "$js_dir/ionice" ]; then
    js_io=$(ionice -p "$js_self" 2>/dev/null) || js_io=
  else
    # Unchanged since the fork: the agent's own class, which it read once ($J/io).
    first_line "$J/io"
    js_io=$LINE
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

# One job: load argv, set it up, wait at the barrier, time the workload. With $3 = alone
# the trial's leader runs its only job itself (no monitor, no duration): it tells the
# agent it is ready and waits for the release on the leader's own FIFOs, one fork and
# the barrier fewer.
run_job() {
  rj_dir=$1
  rj_timeout=$2
  rj_alone=${3:-}
  if [ -z "$rj_alone" ]; then
    # Keep only the ready queue's writer: the leader's FIFO ends must not live here.
    exec 3<&- 4>&- 7>&- 8<&- 9>&-
    exec 6<"$J/barrier"
  fi
  rj_setup=0
  job_setup "$rj_dir" || rj_setup=1
  set --
  while IFS= read -r rj_word || [ -n "$rj_word" ]; do
    set -- "$@" "$rj_word"
  done <"$rj_dir/argv"
  rj_in=/dev/null
  [ ! -s "$rj_dir/stdin" ] || rj_in=$rj_dir/stdin
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
    printf '125\n' >"$rj_dir/rc"
    return 0
  fi
  if [ -z "$rj_alone" ]; then
    IFS= read -r rj_word <&6
    exec 6<&-
  fi
  if [ ! -s "$J/go" ] || [ -s "$J/cancel" ]; then
    printf '130\n' >"$rj_dir/rc"
    return 0
  fi
  date +%s%N >"$rj_dir/start"
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
  ) <"$rj_in" >"$rj_dir/out" 2>"$rj_dir/err" &
  rj_pid=$!
  printf '%s\n' "$rj_pid" >"$rj_dir/pid"
  printf '%s\n' "$rj_pid" >>"$J/pids"
  wait "$rj_pid"
  rj_rc=$?
  date +%s%N >"$rj_dir/end"
  if [ "$rj_rc" = 137 ] && [ "$rj_timeout" != 0 ]; then
    # The workload outlived TERM at the deadline and was killed 2 s later.
    first_line "$rj_dir/start"
    rj_start=$LINE
    first_line "$rj_dir/end"
    to_ns "$rj_timeout"
    [ $((LINE - rj_start)) -lt "$NS" ] || rj_rc=124
  fi
  printf '%s\n' "$rj_rc" >"$rj_dir/rc"
}

# A monitor ($1: its directory) runs until the leader sends TERM, which it must not
# ignore as the leader does.
monitor_start() {
  ms_dir=$1
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
  ) </dev/null >"$ms_dir/out" 2>"$ms_dir/err" &
  printf '%s\n' "$!" >"$ms_dir/pid"
}

# Stops the jobs still running at the duration: $1 INT sends SIGINT to every process of
# each one's workload (as Ctrl-C would; not to its timeout, which would arm its own
# KILL), KILL then kills what is left of those stopped. Marks each job's "stopped".
trial_stop() {
  ts_roots=
  ts_i=1
  while [ "$ts_i" -le "$TN" ]; do
    ts_dir=$J/$ts_i
    ts_i=$((ts_i + 1))
    [ ! -s "$ts_dir/rc" ] || continue
    first_line "$ts_dir/pid"
    alive "$LINE" || continue
    if [ "$1" = INT ]; then
      printf 'INT\n' >"$ts_dir/stopped"
    elif [ -s "$ts_dir/stopped" ]; then
      printf 'KILL\n' >"$ts_dir/stopped"
    else
      continue
    fi
    ts_roots="$ts_roots $LINE"
  done
  [ -n "$ts_roots" ] || return 0
  # shellcheck disable=SC2086 # a list of pids
  descendants $ts_roots
  if [ "$1" = INT ]; then
    # shellcheck disable=SC2086 # a list of pids
    signal_all INT $DS
  else
    # shellcheck disable=SC2086 # a list of pids
    signal_all KILL $DS $ts_roots
  fi
}

trial_main() {
  J=$1
  TN=$2
  TM=$3
  tm_timeout=$4
  tm_duration=$5
  trap '' TERM HUP
  # The agent's FIFOs: "open" ends at go (or when the trial is called off), "end" at its
  # stop. Opened for reading while the inherited writers still exist, so the
  # opens never block; then those inherited writers are dropped.
  exec 3<"$J/open" 8<"$J/end"
  exec 7>&- 6>&-
  # "done" (inherited on 5): its writer moves to 7, and closing it tells the agent's wait.
  exec 7>&5 5>&-
  if [ "$TN" = 1 ] && [ "$TM" = 0 ] && [ "$tm_duration" = 0 ]; then
    # The shells print "Terminated" when a workload is killed: keep it off our stderr.
    run_job "$J/1" "$tm_timeout" alone 2>"$J/1/agent.err"
    # Tells the agent: the job has ended.
    exec 7>&- 8<&-
    exit 0
  fi
  exec 9<>"$J/barrier" 5<>"$J/readyq"
  tm_wrappers=
  tm_i=1
  while [ "$tm_i" -le "$TN" ]; do
    # The shells print "Terminated" when a workload is killed: keep it off our stderr.
    run_job "$J/$tm_i" "$tm_timeout" 2>"$J/$tm_i/agent.err" &
    printf '%s\n' "$!" >"$J/$tm_i/wrapper"
    tm_wrappers="$tm_wrappers $!"
    tm_i=$((tm_i + 1))
  done
  # Every job writes a line when it waits at the barrier and closes its end of the queue;
  # end of file once all have (or died).
  exec 6<"$J/readyq" 5>&-
  while IFS= read -r LINE <&6; do :; done
  exec 6<&-
  # Tells the agent: every process waits at the barrier.
  exec 4>&-
  IFS= read -r LINE <&3
  exec 3<&-
  tm_go=0
  if [ -s "$J/go" ] && [ ! -s "$J/cancel" ]; then
    tm_go=1
    tm_i=1
    while [ "$tm_i" -le "$TM" ]; do
      monitor_start "$J/m$tm_i"
      tm_i=$((tm_i + 1))
    done
  fi
  # The barrier opens (called off without "go" in $J/go).
  exec 9>&-
  tm_timer=
  if [ "$tm_go" = 1 ] && [ -n "$tm_wrappers" ] && [ "$tm_duration" != 0 ]; then
    (
      trap - TERM
      exec 7>&- 8<&-
      sleep "$tm_duration"
      trial_stop INT
      sleep "$STOP_GRACE"
      trial_stop KILL
    ) >/dev/null 2>&1 &
    tm_timer=$!
  fi
  # shellcheck disable=SC2086 # a list of pids
  [ -z "$tm_wrappers" ] || wait $tm_wrappers
  [ -z "$tm_timer" ] || kill -s TERM "$tm_timer" 2>/dev/null
  # Tells the agent: every job has ended.
  exec 7>&-
  # Monitors run on until the agent's stop: the other hosts' jobs may still run.
  [ "$TM" = 0 ] || IFS= read -r LINE <&8
  exec 8<&-
  tm_i=1
  while [ "$tm_i" -le "$TM" ]; do
    first_line "$J/m$tm_i/pid"
    [ -z "$LINE" ] || kill -s TERM "$LINE" 2>/dev/null
    tm_i=$((tm_i + 1))
  done
  tm_i=1
  while [ "$tm_i" -le "$TM" ]; do
    first_line "$J/m$tm_i/pid"
    if [ -n "$LINE" ]; then
      wait "$LINE"
      printf '%s\n' "$?" >"$J/m$tm_i/rc"
    fi
    tm_i=$((tm_i + 1))
  done
  # What the workloads left running is ended by the agent once this leader has exited.
  exit 0
}

if [ "${1:-}" = __trial ]; then
  [ $# -eq 6 ] || exit 2
  trial_main "$2" "$3" "$4" "$5" "$6"
fi

# ---------------------------------------------------------------------------
# The agent itself (a trial's leader has exited above and never reads this)

# Read by builtins: every agent process (a serve, a one-shot call)
# starts with these, and a fork costs milliseconds on a busy host. The effective uid,
# as `id -u` has it; boot_id reads whole even a byte at a time.
UID_NOW=
while IFS="$TAB " read -r id_key _ id_eff _; do
  case $id_key in
    Uid:)
      UID_NOW=$id_eff
      break
      ;;
  esac
done 2>/dev/null </proc/self/status
[ -n "$UID_NOW" ] || UID_NOW=$(id -u)
BOOT=
{ IFS= read -r BOOT </proc/sys/kernel/random/boot_id; } 2>/dev/null
[ -n "$BOOT" ] || BOOT=unknown

# Root's state lives on tmpfs: a reboot clears it, as the journal's boot-id rule assumes.
if [ -n "${TUNELAB_STATE:-}" ]; then
  STATE=${TUNELAB_STATE%/}
elif [ "$UID_NOW" = 0 ]; then
  STATE=/run/tunelab
elif [ -n "${HOME:-}" ]; then
  STATE=$HOME/.cache/tunelab/state
else
  STATE=/tmp/tunelab-agent-$UID_NOW
fi
JOURNAL=$STATE/journal
LOCK=$STATE/lock
J=$STATE/jobs
# Per-process scratch: the current payload, response and staged values.
T=$STATE/tmp.$$
P=$T/payload
R=$T/response
# The shell running this script, to start helpers (trials, the reader) under the same one.
SELF_SH=/proc/$$/exe

# Test hook: one more directory whose files count as knobs. Only with an explicit
# TUNELAB_STATE, so a host's real agent never honours it by accident.
KNOB_ROOT=
if [ -n "${TUNELAB_STATE:-}" ] && [ -n "${TUNELAB_KNOB_ROOT:-}" ]; then
  KNOB_ROOT=$(readlink -f -- "$TUNELAB_KNOB_ROOT" 2>/dev/null) || KNOB_ROOT=
  case $KNOB_ROOT in
    /?*) ;;
    *)
      err "ignoring TUNELAB_KNOB_ROOT=$TUNELAB_KNOB_ROOT"
      KNOB_ROOT=
      ;;
  esac
fi

# Seconds a serve waits after its input ended before it restores the journal itself.
GRACE=${TUNELAB_GRACE:-30}
case $GRACE in
  "" | . | *[!0-9.]* | *.*.*)
    err "ignoring TUNELAB_GRACE=$GRACE (want seconds); using 30"
    GRACE=30
    ;;
esac
LOCK_WAIT=${TUNELAB_LOCK_WAIT:-15}
case $LOCK_WAIT in
  "" | *[!0-9]*) LOCK_WAIT=15 ;;
esac
# What a trial's answer returns of a job's output: its whole stdout on request (fio's
# JSON, a monitor's rows) up to OUT_CAP lines, else the last TAIL_LINES lines.
OUT_CAP=100000
TAIL_LINES=200
BULK=0
# The agent's working directory, where workloads run: resolve_paths leaves and returns.
AGENT_CWD=${PWD:-}
# The agent's own I/O class (`ionice -p`), and its "NICE<TAB>CPUS<TAB>IONICE", read at its
# first trial.
AGENT_IO=
AGENT_SCHED=
AGENT_IO_READ=0
# The request's payload lines, each ended by a newline, when PAYLOAD_OK is 1 (a serve keeps
# them as it reads them): dash's read builtin reads a file a byte at a time, and apply
# went over its payload seven times.
PAYLOAD=
PAYLOAD_OK=0
# JKEYS holds the journal's paths when JKEYS_OK is 1 (journal_load).
JKEYS=
JKEYS_OK=0
# 1 while $J is this agent's, left by its last trial for the next (jobs_claim).
JOBS_KEPT=0
JOBS_FRESH=1

# ---------------------------------------------------------------------------
# Values

# Sets VALUE to the file's contents on one line (lines joined with spaces). cat, not the
# read builtin: dash reads a byte at a time, and /proc/sys answers a read at a non-zero
# offset with end of file, so `read` would see "2" in a dirty_ratio of 20.
get_value() {
  VALUE=$(cat "$1") || return 1
  case $VALUE in
    *"$NL"*) VALUE=$(printf '%s' "$VALUE" | tr '\n' ' ') ;;
  esac
  return 0
}

# Sets VALUES to the values of the files given as arguments, one line each in their
# order, each as get_value has it (empty when unreadable): all read by one awk instead of
# a cat per file, since a fork costs more than the reads. awk's getline reads from offset
# 0 in large blocks, as cat does, so /proc/sys files read whole.
get_values() {
  VALUES=
  [ $# -gt 0 ] || return 0
  # sysfs serves every read of an open file from the text it made at the first, so the
  # read builtin, a byte at a time, reads its files whole, and forks nothing. /proc/sys
  # does not (see get_value): a request with such a path goes to awk.
  for gv_file in "$@"; do
    case $gv_file in
      /sys/*) ;;
      *) gv_file= && break ;;
    esac
  done
  if [ -n "$gv_file" ]; then
    for gv_file in "$@"; do
      gv_v=
      gv_d=
      gv_k=0
      if ! {
        while IFS= read -r gv_line || [ -n "$gv_line" ]; do
          gv_k=$((gv_k + 1))
          gv_sep=
          [ "$gv_k" = 1 ] || gv_sep=' '
          if [ -z "$gv_line" ]; then
            gv_d=$gv_d$gv_sep
            continue
          fi
          gv_v=$gv_v$gv_d$gv_sep$gv_line
          gv_d=
        done <"$gv_file"
      } 2>/dev/null; then
        err "cannot read $gv_file"
        gv_v=
      fi
      VALUES=$VALUES=$gv_v$NL
    done
    VALUES=${VALUES%"$NL"}
    return 0
  fi
  if VALUES=$(awk 'BEGIN {
      for (i = 1; i < ARGC; i++) {
        v = ""; k = 0; d = ""
        # Lines joined with spaces, trailing empty lines dropped, as $(cat) | tr has it.
        while ((r = (getline line < ARGV[i])) > 0) {
          k++
          if (line == "") { d = d (k > 1 ? " " : ""); continue }
          v = v d (k > 1 ? " " : "") line; d = ""
        }
        if (r < 0) { printf "tunelab-agent: cannot read %s\n", ARGV[i] > "/dev/stderr"; v = "" }
        close(ARGV[i])
        print "=" v
      }
    }' "$@"); then
    return 0
  fi
  # No awk to be had: one cat per file.
  VALUES=
  for gv_file in "$@"; do
    get_value "$gv_file" || VALUE=
    VALUES=$VALUES=$VALUE$NL
  done
  VALUES=${VALUES%"$NL"}
}

# Sets MSG to the shell's error text without its "script: LINE:" prefix.
tidy_message() {
  MSG=$(printf '%s\n' "$1" | sed -e 's/^[^:]*: \(line \)\{0,1\}[0-9][0-9]*: //' | tr '\n' ' ')
  MSG=${MSG% }
  [ -n "$MSG" ] || MSG=$2
}

# Writes $2 (plus a newline) to the existing file $1 in a single write(2); on failure
# sets MSG. cat rather than printf does the write because dash's printf reports every
# write error as "I/O error", hiding the kernel's EINVAL/EBUSY.
put_value() {
  if [ ! -e "$1" ]; then
    MSG="no such file or directory"
    return 1
  fi
  # The builtin write costs no fork; only when it fails is the write repeated with cat,
  # whose message carries the kernel's reason (a refused write changes nothing).
  if { printf '%s\n' "$2" >"$1"; } 2>/dev/null; then
    return 0
  fi
  if ! printf '%s\n' "$2" >"$T/value"; then
    MSG="cannot stage the value in $T"
    return 1
  fi
  if MSG=$({ cat "$T/value" >"$1"; } 2>&1); then
    return 0
  fi
  tidy_message "$MSG" "write failed"
  return 1
}

# Sets SEL to the writable form of a value: the selected entry of a sysfs choice
# list ("[none] mq-deadline kyber" -> "none"), otherwise the value itself.
selected_entry() {
  SEL=$1
  case $1 in
    *"["*"]"*)
      SEL=$(printf '%s\n' "$1" | sed -n 's/^\(.* \)\{0,1\}\[\([^] []\{1,\}\)\]\( .*\)\{0,1\}$/\2/p')
      [ -n "$SEL" ] || SEL=$1
      ;;
  esac
}

# ---------------------------------------------------------------------------
# Knob paths. Every path the agent reads, writes or journals for the controller is
# resolved and must stay in /sys, /proc/sys or /proc/fs.

# Resolves every argument with one readlink and keeps GIVEN<TAB>CANONICAL lines in RMAP.
# Fails when the answer does not line up with the arguments (a name with a newline).
resolve_paths() {
  RMAP=$NL
  [ $# -gt 0 ] || return 0
  # Builtins first: `cd -P` into a path's directory gives that directory's physical path,
  # the same readlink's; the last component is kept unless it is a symbolic link. Then
  # back to the agent's directory, where its workloads run. What this cannot resolve (a
  # missing directory, a link at the end, no way back) goes to one readlink.
  rp_n=$#
  rp_dirs=$NL
  for rp_given in "$@"; do
    rp_canon=
    case $rp_given in
      /*/*) rp_dir=${rp_given%/*} ;;
      *) rp_dir= ;;
    esac
    if [ -n "$rp_dir" ] && [ -n "$AGENT_CWD" ] && [ ! -h "$rp_given" ]; then
      case $rp_dirs in
        *"$NL$rp_dir$TAB"*)
          rp_phys=${rp_dirs#*"$NL$rp_dir$TAB"}
          rp_phys=${rp_phys%%"$NL"*}
          ;;
        *)
          rp_phys=
          if [ -d "$AGENT_CWD" ] && cd -P -- "$rp_dir" 2>/dev/null; then
            rp_phys=$PWD
            if ! cd -- "$AGENT_CWD" 2>/dev/null; then
              err "cannot return to $AGENT_CWD; resolving paths with readlink from now on"
              AGENT_CWD=
              rp_phys=
            fi
          fi
          rp_dirs=$rp_dirs$rp_dir$TAB$rp_phys$NL
          ;;
      esac
      [ -z "$rp_phys" ] || rp_canon=${rp_phys%/}/${rp_given##*/}
    fi
    if [ -n "$rp_canon" ]; then
      RMAP=$RMAP$rp_given$TAB$rp_canon$NL
    else
      set -- "$@" "$rp_given"
    fi
  done
  shift "$rp_n"
  [ $# -gt 0 ] || return 0
  rp_out=$(readlink -m -- "$@" 2>/dev/null) || return 1
  rp_rest=$rp_out$NL
  for rp_given in "$@"; do
    [ -n "$rp_rest" ] || return 1
    RMAP=$RMAP$rp_given$TAB${rp_rest%%"$NL"*}$NL
    rp_rest=${rp_rest#*"$NL"}
  done
  [ -z "$rp_rest" ]
}

# Sets RP to the canonical form of the given path $1 when it may be touched; otherwise
# sets MSG and fails. RMAP must hold $1 (resolve_paths).
path_allowed() {
  RP=
  case $1 in
    /*) ;;
    *)
      MSG="refused: not an absolute path"
      return 1
      ;;
  esac
  case $1/ in
    *//* | */./* | */../*)
      MSG="refused: not a canonical path (//, . or ..)"
      return 1
      ;;
    /proc/[0-9]*/* | /proc/self/* | /proc/thread-self/*)
      MSG="refused: a per-process /proc path"
      return 1
      ;;
  esac
  case $RMAP in
    *"$NL$1$TAB"*) ;;
    *)
      MSG="refused: the path could not be resolved"
      return 1
      ;;
  esac
  # Line by line: dash takes ${RMAP#*"$NL$1$TAB"} in time quadratic in the map's length,
  # about a millisecond per lookup for ten knobs.
  pa_ifs=$IFS
  IFS=$NL
  set -f
  for pa_line in $RMAP; do
    case $pa_line in
      "$1$TAB"*)
        RP=${pa_line#"$1$TAB"}
        break
        ;;
    esac
  done
  set +f
  IFS=$pa_ifs
  case $RP in
    /sys/* | /proc/sys/* | /proc/fs/*) return 0 ;;
  esac
  if [ -n "$KNOB_ROOT" ]; then
    case $RP in
      "$KNOB_ROOT"/*) return 0 ;;
    esac
  fi
  MSG="refused: resolves to $RP, outside /sys, /proc/sys and /proc/fs"
  RP=
  return 1
}

# ---------------------------------------------------------------------------
# Journal

# Discards a journal written during an earlier boot: the reboot reset its paths.
journal_drop_stale() {
  [ -f "$JOURNAL" ] || return 0
  jd_head=
  { IFS= read -r jd_head <"$JOURNAL"; } 2>/dev/null
  case $jd_head in
    "#boot$TAB$BOOT") return 0 ;;
  esac
  err "discarding $JOURNAL from another boot (${jd_head#*"$TAB"})"
  JKEYS_OK=0
  rm -f "$JOURNAL"
}

# Loads the journaled paths into JKEYS (newline-framed), so lookups cost no file reads.
journal_load() {
  # A serve holds the lock for its life: nobody else changes the journal, so what it read
  # stays true until it restores (or drops) the journal itself; journal_add keeps it.
  [ "$JKEYS_OK" = 0 ] || return 0
  JKEYS=$NL
  JKEYS_OK=1
  [ -f "$JOURNAL" ] || return 0
  while IFS= read -r jl_line || [ -n "$jl_line" ]; do
    case $jl_line in
      "#boot$TAB"* | "") ;;
      *"$TAB"*) JKEYS=$JKEYS${jl_line%%"$TAB"*}$NL ;;
    esac
  done <"$JOURNAL"
}

# True when $1 already has a line in the journal.
journal_has() {
  case $JKEYS in
    *"$NL$1$NL"*) return 0 ;;
  esac
  return 1
}

# Appends PATH<TAB>ORIGINAL; the caller syncs once after all its appends.
journal_add() {
  if [ ! -f "$JOURNAL" ]; then
    printf '#boot\t%s\n' "$BOOT" >"$JOURNAL" || return 1
  fi
  selected_entry "$2"
  printf '%s\t%s\n' "$1" "$SEL" >>"$JOURNAL" || return 1
  JKEYS=$JKEYS$1$NL
}

# Forces the journal (and its directory entry) to disk. Only the journal: a global
# sync could take minutes on a host full of dirty pages in a writeback experiment.
journal_sync() {
  sync "$JOURNAL" "$STATE" 2>/dev/null || sync
}

# Journals path $1 (read through its canonical form $2) unless it is journaled already
# or missing. Status 1 with MSG when it cannot be read, 2 when the journal cannot grow.
save_path() {
  [ -e "$2" ] || return 0
  journal_has "$1" && return 0
  FAILED=$1
  if ! get_value "$2" 2>"$T/err"; then
    first_line "$T/err"
    tidy_message "$LINE" "unreadable"
    return 1
  fi
  if ! journal_add "$1" "$VALUE"; then
    MSG="cannot append to $JOURNAL"
    return 2
  fi
  SAVED=1
}

# Journals whichever of an exclusive pair is active: A when it is non-zero (or B does
# not exist), else B. The kernel rejects 0 for *_bytes, so a zero A is never saved.
# Arguments: A, canonical A, B, canonical B.
save_pair() {
  journal_has "$1" && return 0
  journal_has "$3" && return 0
  sp_value=0
  if [ -e "$2" ]; then
    get_value "$2" 2>/dev/null && sp_value=$VALUE
  fi
  if [ -e "$2" ] && { [ "$sp_value" != 0 ] || [ ! -e "$4" ]; }; then
    save_path "$1" "$2"
  else
    save_path "$3" "$4"
  fi
}

# Journals the files a write to $1 (canonical $2) changes besides itself, so restore can
# put them back: a new scheduler resets nr_requests and iosched/* and may switch off
# writeback throttling (bfq); max_sectors_kb may reset read_ahead_kb. Only files the
# mode says are writable: a read-only one can neither change by our hand nor be restored.
save_side_effects() {
  se_gdir=${1%/*}
  se_rdir=${2%/*}
  se_what=$2
  set --
  case $se_what in
    */queue/scheduler)
      set -- "$se_rdir/wbt_lat_usec" "$se_rdir/nr_requests"
      if [ -d "$se_rdir/iosched" ] && [ ! -h "$se_rdir/iosched" ]; then
        for se_file in "$se_rdir"/iosched/*; do
          set -- "$@" "$se_file"
        done
      fi
      ;;
    */queue/max_sectors_kb) set -- "$se_rdir/read_ahead_kb" ;;
    *) return 0 ;;
  esac
  # Keep the regular files, never a symlink, not journaled yet (so a trial that writes
  # the same knobs again forks no stat): appended, then the candidates shifted off.
  se_n=$#
  for se_file in "$@"; do
    journal_has "$se_gdir/${se_file#"$se_rdir"/}" && continue
    [ -f "$se_file" ] && [ ! -h "$se_file" ] && set -- "$@" "$se_file"
  done
  shift "$se_n"
  [ $# -gt 0 ] || return 0
  se_modes=$(stat -c '%A' -- "$@" 2>/dev/null)$NL || se_modes=
  for se_file in "$@"; do
    se_mode=${se_modes%%"$NL"*}
    se_modes=${se_modes#*"$NL"}
    case $se_mode in
      ?*w*) ;;
      *) continue ;;
    esac
    save_path "$se_gdir/${se_file#"$se_rdir"/}" "$se_file" || return $?
  done
}

# The other member of a kernel pair that excludes each other, when $1 (canonical) is one.
pair_partner() {
  case $1 in
    /proc/sys/vm/dirty_bytes) PARTNER=dirty_ratio ;;
    /proc/sys/vm/dirty_ratio) PARTNER=dirty_bytes ;;
    /proc/sys/vm/dirty_background_bytes) PARTNER=dirty_background_ratio ;;
    /proc/sys/vm/dirty_background_ratio) PARTNER=dirty_background_bytes ;;
    *) return 1 ;;
  esac
}

# Journals what a write to $1 (canonical $2) is about to change: the path itself, the
# active half of an exclusive pair it belongs to, and its side-effect files. Status as
# save_path.
journal_for_write() {
  case $SAVEPAIRS in
    *"$NL$1$TAB"* | *"$TAB$1$NL"*) return 0 ;; # a savepair line of this request covers it
  esac
  if pair_partner "$2"; then
    jw_gb=${1%/*}/$PARTNER
    jw_rb=${2%/*}/$PARTNER
    case $1 in
      *_bytes) save_pair "$1" "$2" "$jw_gb" "$jw_rb" ;;
      *) save_pair "$jw_gb" "$jw_rb" "$1" "$2" ;;
    esac
    return $?
  fi
  save_path "$1" "$2" || return $?
  save_side_effects "$1" "$2"
}

# ---------------------------------------------------------------------------
# Processes. Everything a trial starts is in the trial's own process group (setsid);
# the reader of a serve is in its own group too. Groups are recorded with their
# leader's start time, so a recorded number is never mistaken for a later process.

# Sets GM to the live members of process group $1, except pid $2.
group_members() {
  GM=
  gm_list=$(cat /proc/[0-9]*/stat 2>/dev/null | awk -v g="$1" '
      $1 ~ /^[0-9]+$/ {
        rest = $0
        if (sub(/.*\) /, "", rest) && split(rest, f, " ") >= 3 && f[3] == g) print $1
      }')
  for gm_pid in $gm_list; do
    [ "$gm_pid" != "${2:-}" ] || continue
    # Checked again by the builtin reader: a command name may hold ") " or a newline.
    if proc_stat "$gm_pid" && [ "$PS_PGRP" = "$1" ] && [ "$PS_STATE" != Z ]; then
      GM="$GM $gm_pid"
    fi
  done
}

# Prints "ended<TAB>PID<TAB>COMMAND" for pid $1.
report_ended() {
  re_cmd=$(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null)
  printf 'ended\t%s\t%s\n' "$1" "${re_cmd% }"
}

# Ends process group $1 whose leader started at tick $2 (empty: unknown): TERM, up to
# 2 s, then KILL. With $3 = report, prints an "ended" line per member found.
group_end() {
  if proc_stat "$1" && [ -n "${2:-}" ] && [ "$PS_START" != "$2" ]; then
    # The number belongs to a later process: a group keeps its number while it has
    # members, so ours is gone.
    return 0
  fi
  group_members "$1"
  [ -n "$GM" ] || return 0
  if [ "${3:-}" = report ]; then
    for ge_pid in $GM; do
      report_ended "$ge_pid"
    done
  fi
  kill -s TERM -- "-$1" 2>/dev/null
  ge_tries=0
  while [ "$ge_tries" -lt 40 ]; do
    sleep 0.05
    group_members "$1"
    [ -n "$GM" ] || return 0
    ge_tries=$((ge_tries + 1))
  done
  kill -s KILL -- "-$1" 2>/dev/null
  return 0
}

# Sets TP to $1 and all its descendants (from /proc), parents before children.
tree_pids() {
  TP=$1
  tp_list=$(child_pids "$1")
  for tp_pid in $tp_list; do
    proc_stat "$tp_pid" || continue
    case " $TP " in
      *" $PS_PPID "*) TP="$TP $tp_pid" ;;
    esac
  done
}

# True when any pid among the arguments still runs.
any_alive() {
  for aa_pid in "$@"; do
    alive "$aa_pid" && return 0
  done
  return 1
}

# ---------------------------------------------------------------------------
# Verbs. Each reads its payload from "$P" and prints its response on stdout.

verb_hello() {
  printf 'agent\t%s\n' "$AGENT_VERSION"
  printf 'pid\t%s\n' "$$"
  while IFS= read -r he_line || [ -n "$he_line" ]; do
    case $he_line in
      "experiment$TAB"*)
        EXPERIMENT=${he_line#*"$TAB"}
        [ "${LOCKED:-0}" = 0 ] || printf '%s\n' "$EXPERIMENT" >"$LOCK/experiment"
        ;;
      "") ;;
      *) err "hello: ignoring payload line: $he_line" ;;
    esac
  done <"$P"
  [ ! -s "$T/ended" ] || cat "$T/ended"
}

verb_facts() {
  printf 'kernel_release\t%s\n' "$(uname -r)"
  printf 'boot_id\t%s\n' "$BOOT"
  printf 'hostname\t%s\n' "$(uname -n)"
  fa_cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || fa_cpus=$(nproc 2>/dev/null)
  printf 'cpus\t%s\n' "$fa_cpus"
  printf 'mem_kb\t%s\n' "$(sed -n 's/^MemTotal: *\([0-9]*\) kB$/\1/p' /proc/meminfo 2>/dev/null)"
  printf 'uid\t%s\n' "$UID_NOW"
  if [ -f "$JOURNAL" ]; then
    printf 'journal\tpresent\n'
  else
    printf 'journal\tabsent\n'
  fi
  printf 'state\t%s\n' "$STATE"
  for fa_dev in /sys/block/*; do
    [ -r "$fa_dev/queue/scheduler" ] || continue
    # One line, read by a builtin: a fork per device adds up on hosts with many disks.
    first_line "$fa_dev/queue/scheduler"
    printf 'block\t%s\t%s\n' "${fa_dev##*/}" "$LINE"
  done
}

# Sets PAYLOAD to the payload's lines (from "$P") unless the serve loop did.
payload_load() {
  [ "$PAYLOAD_OK" = 0 ] || return 0
  PAYLOAD=
  while IFS= read -r pl_line || [ -n "$pl_line" ]; do
    PAYLOAD=$PAYLOAD$pl_line$NL
  done <"$P"
  PAYLOAD_OK=1
}

# Resolves the absolute paths of the payload's lines ($1: the verb's line kinds).
resolve_payload() {
  payload_load
  rs_kind=$1
  set --
  rs_all=$PAYLOAD
  while [ -n "$rs_all" ]; do
    rs_line=${rs_all%%"$NL"*}
    rs_all=${rs_all#*"$NL"}
    case $rs_kind in
      read) rs_paths=$rs_line ;;
      *)
        rs_rest=${rs_line#*"$TAB"}
        case $rs_line in
          "save$TAB"* | "check$TAB"*) rs_paths=$rs_rest ;;
          "savepair$TAB"*) rs_paths=${rs_rest%%"$TAB"*}$NL${rs_rest#*"$TAB"} ;;
          "set$TAB"*) rs_paths=${rs_rest%%"$TAB"*} ;;
          *) continue ;;
        esac
        ;;
    esac
    while [ -n "$rs_paths" ]; do
      rs_path=${rs_paths%%"$NL"*}
      case $rs_paths in
        *"$NL"*) rs_paths=${rs_paths#*"$NL"} ;;
        *) rs_paths= ;;
      esac
      case $rs_path in
        /*) set -- "$@" "$rs_path" ;;
      esac
    done
  done
  resolve_paths "$@"
}

verb_read() {
  resolve_payload read || RMAP=$NL
  rd_rc=0
  rd_all=$PAYLOAD
  while [ -n "$rd_all" ]; do
    rd_path=${rd_all%%"$NL"*}
    rd_all=${rd_all#*"$NL"}
    [ -n "$rd_path" ] || continue
    if ! path_allowed "$rd_path"; then
      err "read: $rd_path: $MSG"
      printf 'fail\t%s\t%s\n' "$rd_path" "$MSG"
      rd_rc=1
      continue
    fi
    if [ ! -e "$RP" ]; then
      printf 'missing\t%s\t\n' "$rd_path"
      continue
    fi
    # Root passes access(2) for everything: only the mode bits tell a knob the
    # kernel will refuse (r--r--r--) from one it accepts; -w still catches ro mounts.
    rd_state=ro
    case $(stat -L -c %A "$RP" 2>/dev/null) in
      ?*w*) [ -w "$RP" ] && rd_state=rw ;;
    esac
    get_value "$RP" || VALUE=
    printf '%s\t%s\t%s\n' "$rd_state" "$rd_path" "$VALUE"
  done
  return "$rd_rc"
}

# Prints "fail" for path $1 once per request ($2: the message).
apply_fail_once() {
  case $AP_FAILED in
    *"$NL$1$NL"*) return 0 ;;
  esac
  AP_FAILED=$AP_FAILED$1$NL
  printf 'fail\t%s\t%s\n' "$1" "$2"
}

verb_apply() {
  payload_load
  ap_bad=0
  ap_all=$PAYLOAD
  while [ -n "$ap_all" ]; do
    ap_line=${ap_all%%"$NL"*}
    ap_all=${ap_all#*"$NL"}
    case $ap_line in
      "" | "save$TAB"?* | "check$TAB"?* | "savepair$TAB"?*"$TAB"?* | "set$TAB"?*"$TAB"*) ;;
      *)
        err "apply: bad payload line: $ap_line"
        ap_bad=1
        ;;
    esac
  done
  [ "$ap_bad" = 0 ] || return 2

  resolve_payload apply || RMAP=$NL
  AP_FAILED=$NL
  # A path that leaves the allowed trees refuses the whole request: nothing is written.
  ap_refused=0
  ap_all=$PAYLOAD
  while [ -n "$ap_all" ]; do
    ap_line=${ap_all%%"$NL"*}
    ap_all=${ap_all#*"$NL"}
    ap_rest=${ap_line#*"$TAB"}
    case $ap_line in
      "save$TAB"* | "check$TAB"*) ap_paths=$ap_rest ;;
      "savepair$TAB"*) ap_paths=${ap_rest%%"$TAB"*}$NL${ap_rest#*"$TAB"} ;;
      "set$TAB"*) ap_paths=${ap_rest%%"$TAB"*} ;;
      *) continue ;;
    esac
    while [ -n "$ap_paths" ]; do
      ap_path=${ap_paths%%"$NL"*}
      case $ap_paths in
        *"$NL"*) ap_paths=${ap_paths#*"$NL"} ;;
        *) ap_paths= ;;
      esac
      if ! path_allowed "$ap_path"; then
        err "apply: $ap_path: $MSG"
        apply_fail_once "$ap_path" "$MSG"
        ap_refused=1
      fi
    done
  done

  journal_drop_stale
  journal_load
  SAVED=0
  SAVEPAIRS=$NL
  ap_savefail=0
  # Paths whose original could not be read: NOJ holds "PATH<TAB>MESSAGE" lines.
  ap_noj=$NL
  if [ "$ap_refused" = 0 ]; then
    ap_all=$PAYLOAD
    while [ -n "$ap_all" ]; do
      ap_line=${ap_all%%"$NL"*}
      ap_all=${ap_all#*"$NL"}
      ap_rest=${ap_line#*"$TAB"}
      case $ap_line in
        "save$TAB"*)
          path_allowed "$ap_rest"
          save_path "$ap_rest" "$RP"
          ;;
        "savepair$TAB"*)
          ap_a=${ap_rest%%"$TAB"*}
          ap_b=${ap_rest#*"$TAB"}
          SAVEPAIRS=$SAVEPAIRS$ap_a$TAB$ap_b$NL
          path_allowed "$ap_a"
          ap_ra=$RP
          path_allowed "$ap_b"
          save_pair "$ap_a" "$ap_ra" "$ap_b" "$RP"
          ;;
        *) continue ;;
      esac
      case $? in
        0) ;;
        1)
          printf 'fail\t%s\tcannot journal the original value: %s\n' "$FAILED" "$MSG"
          ap_savefail=1
          ;;
        *)
          printf 'fail\t%s\t%s\n' "$FAILED" "$MSG"
          ap_savefail=1
          ;;
      esac
    done
    # Every path about to be written is journaled first, with what the write changes
    # besides it, whether or not the controller asked for it.
    ap_all=$PAYLOAD
    while [ "$ap_savefail" = 0 ] && [ -n "$ap_all" ]; do
      ap_line=${ap_all%%"$NL"*}
      ap_all=${ap_all#*"$NL"}
      case $ap_line in
        "set$TAB"*) ;;
        *) continue ;;
      esac
      ap_rest=${ap_line#*"$TAB"}
      ap_path=${ap_rest%%"$TAB"*}
      path_allowed "$ap_path"
      journal_for_write "$ap_path" "$RP"
      case $? in
        0) ;;
        1) ap_noj=$ap_noj$ap_path$TAB$MSG$NL ;;
        *)
          printf 'fail\t%s\t%s\n' "$ap_path" "$MSG"
          ap_savefail=1
          ;;
      esac
    done
    [ "$SAVED" = 0 ] || journal_sync
  fi

  ap_rc=0
  [ "$ap_savefail" = 0 ] && [ "$ap_refused" = 0 ] || ap_rc=1
  ap_all=$PAYLOAD
  while [ -n "$ap_all" ]; do
    ap_line=${ap_all%%"$NL"*}
    ap_all=${ap_all#*"$NL"}
    case $ap_line in
      "set$TAB"*) ;;
      *) continue ;;
    esac
    ap_rest=${ap_line#*"$TAB"}
    ap_path=${ap_rest%%"$TAB"*}
    if [ "$ap_refused" = 1 ]; then
      apply_fail_once "$ap_path" "not written: the request names a refused path"
      continue
    fi
    if [ "$ap_savefail" = 1 ]; then
      # Never write what could not be undone.
      printf 'fail\t%s\tnot written: an original value could not be journaled\n' "$ap_path"
      continue
    fi
    case $ap_noj in
      *"$NL$ap_path$TAB"*)
        ap_msg=${ap_noj#*"$NL$ap_path$TAB"}
        printf 'fail\t%s\tnot written: its original value cannot be journaled: %s\n' \
          "$ap_path" "${ap_msg%%"$NL"*}"
        ap_rc=1
        continue
        ;;
    esac
    path_allowed "$ap_path"
    ap_rpath=$RP
    # A file an earlier write of this request created (a new scheduler's iosched/*)
    # is journaled now, before its own first write.
    if [ -e "$ap_rpath" ] && ! journal_has "$ap_path"; then
      SAVED=0
      if ! journal_for_write "$ap_path" "$ap_rpath"; then
        printf 'fail\t%s\tnot written: its original value cannot be journaled: %s\n' \
          "$ap_path" "$MSG"
        ap_rc=1
        continue
      fi
      [ "$SAVED" = 0 ] || journal_sync
    fi
    if ! put_value "$ap_rpath" "${ap_rest#*"$TAB"}"; then
      printf 'fail\t%s\t%s\n' "$ap_path" "$MSG"
      ap_rc=1
    fi
  done

  # Read back: every written and checked path at once.
  set --
  ap_eff=
  ap_all=$PAYLOAD
  while [ -n "$ap_all" ]; do
    ap_line=${ap_all%%"$NL"*}
    ap_all=${ap_all#*"$NL"}
    ap_rest=${ap_line#*"$TAB"}
    case $ap_line in
      "set$TAB"*) ap_path=${ap_rest%%"$TAB"*} ;;
      "check$TAB"*) ap_path=$ap_rest ;;
      *) continue ;;
    esac
    path_allowed "$ap_path" || continue
    set -- "$@" "$RP"
    ap_eff=$ap_eff$ap_path$NL
  done
  get_values "$@"
  ap_values=$VALUES$NL
  while [ -n "$ap_eff" ]; do
    ap_value=${ap_values%%"$NL"*}
    ap_values=${ap_values#*"$NL"}
    printf 'eff\t%s\t%s\n' "${ap_eff%%"$NL"*}" "${ap_value#=}"
    ap_eff=${ap_eff#*"$NL"}
  done
  return "$ap_rc"
}

# Writes one journal line back ($1 path, $2 original); appends it to $T/keep when it
# must stay for a later retry.
restore_line() {
  if ! path_allowed "$1"; then
    printf 'fail\t%s\t%s; dropped from the journal\n' "$1" "$MSG"
    RE_RC=1
    return 0
  fi
  if [ ! -e "$RP" ]; then
    case $1 in
      */queue/iosched/*)
        # An I/O scheduler's tunable is gone because its scheduler is no longer the
        # device's: restoring the scheduler (first) reset that scheduler's files.
        [ ! -e "${RP%/iosched/*}/scheduler" ] || return 0
        ;;
    esac
    printf 'gone\t%s\n' "$1"
    err "restore: $1 is gone (its device was removed?); dropped from the journal"
    return 0
  fi
  if put_value "$RP" "$2"; then
    printf 'restored\t%s\t%s\n' "$1" "$2"
  elif [ ! -e "$RP" ]; then
    printf 'gone\t%s\n' "$1"
  elif [ "$RE_DISCARD" = 1 ]; then
    err "restore: $1: $MSG; discarded (was $2)"
    printf 'discarded\t%s\t%s\n' "$1" "$2"
  else
    printf 'fail\t%s\t%s\n' "$1" "$MSG"
    printf '%s\t%s\n' "$1" "$2" >>"$T/keep"
    RE_RC=1
  fi
}

verb_restore() {
  JKEYS_OK=0
  RE_DISCARD=0
  while IFS= read -r re_line || [ -n "$re_line" ]; do
    case $re_line in
      discard) RE_DISCARD=1 ;;
      "") ;;
      *)
        err "restore: bad payload line: $re_line"
        return 2
        ;;
    esac
  done <"$P"
  [ -f "$JOURNAL" ] || return 0
  first_line "$JOURNAL"
  case $LINE in
    "#boot$TAB"*) ;;
    *)
      err "restore: $JOURNAL does not start with a #boot line; left in place"
      return 1
      ;;
  esac
  if [ "${LINE#*"$TAB"}" != "$BOOT" ]; then
    printf 'stale\t%s\n' "${LINE#*"$TAB"}"
    rm -f "$JOURNAL"
    return 0
  fi
  set --
  while IFS= read -r re_line || [ -n "$re_line" ]; do
    case $re_line in
      /*"$TAB"*) set -- "$@" "${re_line%%"$TAB"*}" ;;
    esac
  done <"$JOURNAL"
  if ! resolve_paths "$@"; then
    err "restore: the journal's paths could not be resolved; left in place"
    return 1
  fi
  RE_RC=0
  : >"$T/keep"
  # Causes before their dependents, so the last write to every file is its original:
  # schedulers first (a scheduler switch resets nr_requests, iosched/* and may change
  # wbt_lat_usec), then max_sectors_kb (it may reset read_ahead_kb), then the rest.
  for re_pass in scheduler max_sectors rest; do
    re_first=1
    while IFS= read -r re_line || [ -n "$re_line" ]; do
      if [ "$re_first" = 1 ]; then
        re_first=0
        continue
      fi
      [ -n "$re_line" ] || continue
      re_path=${re_line%%"$TAB"*}
      case $re_pass:$re_line in
        scheduler:*/queue/scheduler"$TAB"* | max_sectors:*/queue/max_sectors_kb"$TAB"*) ;;
        rest:*/queue/scheduler"$TAB"* | rest:*/queue/max_sectors_kb"$TAB"*) continue ;;
        rest:*"$TAB"*) ;;
        rest:*)
          printf 'fail\t%s\tmalformed journal line\n' "$re_line"
          [ "$RE_DISCARD" = 1 ] || printf '%s\n' "$re_line" >>"$T/keep"
          RE_RC=1
          continue
          ;;
        *) continue ;;
      esac
      restore_line "$re_path" "${re_line#*"$TAB"}"
    done <"$JOURNAL"
  done
  if [ -s "$T/keep" ]; then
    { printf '#boot\t%s\n' "$BOOT" && cat "$T/keep"; } >"$JOURNAL.new" &&
      mv -f "$JOURNAL.new" "$JOURNAL" && journal_sync
  else
    rm -f "$JOURNAL"
  fi
  return "$RE_RC"
}

verb_journal() {
  [ -f "$JOURNAL" ] || return 0
  while IFS= read -r jo_line || [ -n "$jo_line" ]; do
    case $jo_line in
      "#boot$TAB"* | "") ;;
      *) printf '%s\n' "$jo_line" ;;
    esac
  done <"$JOURNAL"
}

verb_sync() {
  sync
}

verb_drop_caches() {
  if [ "$UID_NOW" != 0 ]; then
    err "drop-caches needs root (running as uid $UID_NOW)"
    return 1
  fi
  sync
  if ! put_value /proc/sys/vm/drop_caches 3; then
    err "drop-caches: /proc/sys/vm/drop_caches: $MSG"
    return 1
  fi
}

# Claims $J for this agent, unless a live agent's run holds it. Sets JOBS_FRESH to 1 when
# $J was made anew (its FIFOs are still to be made), 0 when this agent's last trial left it.
jobs_claim() {
  # The last trial of this agent ended cleanly and left nobody behind: its directory, FIFOs
  # and job directories serve again, emptied of what the files' presence or size says, so
  # a trial costs no mkdir, mkfifo or rm on the way.
  if [ "$JOBS_KEPT" = 1 ] && [ -d "$J" ] && [ ! -h "$J" ]; then
    JOBS_KEPT=0
    first_line "$J/owner"
    if [ "$LINE" = "$$ $MYSTART" ]; then
      JOBS_FRESH=0
      : >"$J/pids"
      : >"$J/go"
      : >"$J/cancel"
      : >"$J/trial.err"
      return 0
    fi
  fi
  JOBS_KEPT=0
  JOBS_FRESH=1
  if ! mkdir "$J" 2>/dev/null; then
    first_line "$J/owner"
    # shellcheck disable=SC2086 # "PID START"
    if [ -n "$LINE" ] && [ "${LINE%% *}" != "$$" ] && alive $LINE; then
      err "$1: another run is in progress (agent pid ${LINE%% *})"
      return 3
    fi
    rm -rf "$J"
    mkdir "$J" || return 3
  fi
  printf '%s %s\n' "$$" "$MYSTART" >"$J/owner"
  : >"$J/pids"
  : >"$J/go"
  : >"$J/cancel"
}

# Prints "KIND<TAB>NAME<TAB>LINE" per line of an output file: all of it up to OUT_CAP lines
# (then a "cut<TAB>NAME<TAB>DROPPED" line), or its last TAIL_LINES lines.
# Arguments: KIND, NAME, FILE, all|tail.
job_lines() {
  [ -s "$3" ] || return 0
  BULK=1
  if [ "$4" = all ]; then
    awk -v p="$1\\t$2\\t" -v name="$2" -v cap="$OUT_CAP" '
      NR <= cap { print p $0 }
      END { if (NR > cap) printf "cut\t%s\t%d\n", name, NR - cap }' "$3"
  else
    tail -n "$TAIL_LINES" "$3" | awk -v p="$1\\t$2\\t" '{ print p $0 }'
  fi
}

# Reads a run/start payload into $J: one directory per job ($J/1 …) and per monitor
# ($J/m1 …), TN jobs, TM monitors, TT the timeout and TD the duration. Status 2 when
# the payload is malformed ($1: the verb, for messages).
trial_parse() {
  TN=0
  TM=0
  TT=0
  TD=0
  tp_bad=0
  tp_dir=
  tp_names=$NL
  while IFS= read -r tp_line || [ -n "$tp_line" ]; do
    tp_value=${tp_line#*"$TAB"}
    case $tp_line in
      "") continue ;;
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
            TN=$((TN + 1))
            tp_dir=$J/$TN
            ;;
          *)
            TM=$((TM + 1))
            tp_dir=$J/m$TM
            ;;
        esac
        [ -d "$tp_dir" ] || mkdir "$tp_dir" || return 1
        printf '%s\n' "$tp_value" >"$tp_dir/name"
        # Emptied: a kept directory holds the files of an earlier trial's job.
        for tp_file in argv env stdin nice ionice cpus stdout sched setup.err pid out err \
          start end rc stopped; do
          : >"$tp_dir/$tp_file"
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
      "timeout$TAB"* | "duration$TAB"*)
        if ! is_seconds "$tp_value"; then
          err "$1: bad ${tp_line%%"$TAB"*} (want seconds): $tp_value"
          tp_bad=1
        elif [ "${tp_line%%"$TAB"*}" = timeout ]; then
          TT=$tp_value
        else
          TD=$tp_value
        fi
        ;;
      *)
        err "$1: bad payload line: $tp_line"
        tp_bad=1
        ;;
    esac
  done <"$P"
  if [ "$TN" = 0 ] && { [ "$1" = run ] || [ "$TM" = 0 ]; }; then
    err "$1: no job given"
    tp_bad=1
  fi
  tp_i=1
  while [ "$tp_i" -le $((TN + TM)) ]; do
    tp_dir=$J/$tp_i
    [ "$tp_i" -le "$TN" ] || tp_dir=$J/m$((tp_i - TN))
    tp_i=$((tp_i + 1))
    if [ ! -s "$tp_dir/argv" ]; then
      first_line "$tp_dir/name"
      err "$1: job $LINE has no arg line"
      tp_bad=1
    fi
  done
  [ "$tp_bad" = 0 ] || return 2
}

# Starts the trial a run/start payload describes ($1: the verb) in its own process group
# and returns once every process waits at the barrier. The agent keeps two FIFOs open
# for writing: closing "open" releases the barrier (or, without $J/go, calls the trial
# off), closing "end" stops the monitors and ends the trial. It reads a third, "done",
# whose end of file says that every job has ended.
trial_start() {
  if ! command -v setsid >/dev/null || ! command -v timeout >/dev/null; then
    err "$1: needs setsid (util-linux) and timeout (coreutils) on this host"
    return 3
  fi
  jobs_claim "$1" || return $?
  trial_parse "$1"
  ts_rc=$?
  if [ "$ts_rc" != 0 ]; then
    rm -rf "$J"
    return "$ts_rc"
  fi
  if [ "$JOBS_FRESH" = 1 ] &&
    ! mkfifo -m 0600 "$J/open" "$J/end" "$J/started" "$J/done" "$J/barrier" "$J/readyq"; then
    err "$1: cannot create the trial's FIFOs in $J"
    rm -rf "$J"
    return 1
  fi
  # What a job that asks for no I/O class, nice or CPUs has: the agent's own, which every
  # process of the trial inherits. Read once per agent, not once per job and trial.
  if [ "$AGENT_IO_READ" = 0 ]; then
    AGENT_IO=$(ionice -p "$$" 2>/dev/null) || AGENT_IO=
    self_sched "$$"
    AGENT_SCHED="$SELF_NICE$TAB$SELF_CPUS$TAB$AGENT_IO"
    AGENT_IO_READ=1
  fi
  printf '%s\n' "$AGENT_IO" >"$J/io"
  printf '%s\n' "$AGENT_SCHED" >"$J/sched"
  # Read and write: opening a FIFO so never blocks, and the trial inherits a writer.
  exec 7<>"$J/open" 6<>"$J/end" 4<>"$J/started" 5<>"$J/done"
  # The trial: a new session and process group holding every process of this request,
  # so it can be ended as one (cancel, end of input, a later agent finding leftovers).
  setsid "$SELF_SH" "$0" __trial "$J" "$TN" "$TM" "$TT" "$TD" \
    </dev/null >/dev/null 2>>"$J/trial.err" &
  CUR_G=$!
  CUR_GSTART=
  proc_stat "$CUR_G" && CUR_GSTART=$PS_START
  printf '%s %s\n' "$CUR_G" "$CUR_GSTART" >"$J/pgid"
  TRIAL_WAITED=0
  # Only the trial keeps writers of "started" and "done": end of file on each says it
  # got there (or died).
  exec 3<"$J/started" 9<"$J/done" 4>&- 5>&-
  await_eof 3
  exec 3<&-
  return 0
}

# Blocks until end of file on the FIFO open on fd $1. dash reads it with its builtin (no
# fork). bash waits for a cat instead: a signal that ends the agent meanwhile must leave its
# exit trap able to end the trial, and bash's read builtin, interrupted so, leaves later
# reads of the exit trap failing.
await_eof() {
  if [ -z "${BASH_VERSION:-}" ]; then
    while IFS= read -r LINE <&"$1"; do :; done
    return 0
  fi
  case $1 in
    3) cat <&3 >/dev/null 6>&- 7>&- 9<&- & ;;
    *) cat <&9 >/dev/null 3<&- 6>&- 7>&- & ;;
  esac
  wait "$!"
}

# Opens the barrier: every process of the trial starts now.
trial_go() {
  printf 'go\n' >"$J/go"
  exec 7>&-
}

# Waits until every job has ended (calling the trial off when it was never released) and
# prints what they did; status 0 when every job exited 0 or was stopped by the duration.
trial_jobs() {
  exec 7>&-
  await_eof 9
  exec 9<&-
  TRIAL_WAITED=1
  tf_rc=0
  tf_i=1
  while [ "$tf_i" -le "$TN" ]; do
    tf_dir=$J/$tf_i
    first_line "$tf_dir/name"
    tf_name=$LINE
    first_line "$tf_dir/rc"
    tf_jrc=${LINE:-255}
    first_line "$tf_dir/start"
    tf_start=${LINE:-0}
    first_line "$tf_dir/end"
    tf_end=${LINE:-0}
    first_line "$tf_dir/stopped"
    printf 'job\t%s\t%s\t%s\t%s\n' "$tf_name" "$tf_jrc" "$tf_start" "$tf_end"
    if [ "$tf_jrc" != 0 ] && { [ "$LINE" != INT ] || [ "$tf_jrc" = 124 ]; }; then
      tf_rc=1
    fi
    tf_i=$((tf_i + 1))
  done
  tf_i=1
  while [ "$tf_i" -le "$TN" ]; do
    first_line "$J/$tf_i/name"
    tf_name=$LINE
    first_line "$J/$tf_i/stopped"
    [ -z "$LINE" ] || printf 'stopped\t%s\t%s\n' "$tf_name" "$LINE"
    first_line "$J/$tf_i/sched"
    [ -z "$LINE" ] || printf 'sched\t%s\t%s\n' "$tf_name" "$LINE"
    tf_i=$((tf_i + 1))
  done
  tf_i=1
  while [ "$tf_i" -le "$TN" ]; do
    tf_dir=$J/$tf_i
    first_line "$tf_dir/name"
    tf_name=$LINE
    first_line "$tf_dir/stdout"
    job_lines out "$tf_name" "$tf_dir/out" "${LINE:-tail}"
    job_lines err "$tf_name" "$tf_dir/setup.err" tail
    job_lines err "$tf_name" "$tf_dir/err" tail
    tf_i=$((tf_i + 1))
  done
  return "$tf_rc"
}

# Stops the monitors, waits for the trial to end and prints what the monitors did.
trial_end() {
  exec 6>&-
  wait "$CUR_G"
  # What the workloads left running (a daemonised child, a killed job's subshell, the
  # timer's sleep) is still in the trial's group: end it now, not when it pleases. The
  # leader is gone, so a signal 0 to the group (a builtin, no /proc scan) fails unless
  # something is left; the group's number cannot be reused while it has members.
  if kill -s 0 -- "-$CUR_G" 2>/dev/null; then
    group_end "$CUR_G"
  fi
  te_keep=0
  kill -s 0 -- "-$CUR_G" 2>/dev/null || te_keep=1
  CUR_G=
  te_i=1
  while [ "$te_i" -le "$TM" ]; do
    first_line "$J/m$te_i/name"
    te_name=$LINE
    first_line "$J/m$te_i/rc"
    printf 'monitor\t%s\t%s\n' "$te_name" "${LINE:-255}"
    te_i=$((te_i + 1))
  done
  te_i=1
  while [ "$te_i" -le "$TM" ]; do
    first_line "$J/m$te_i/name"
    job_lines out "$LINE" "$J/m$te_i/out" all
    job_lines err "$LINE" "$J/m$te_i/err" tail
    te_i=$((te_i + 1))
  done
  if [ "$te_keep" = 1 ]; then
    # Kept for the next trial: nobody of this one is left to hold a FIFO or write a file.
    : >"$J/pids"
    : >"$J/pgid"
    JOBS_KEPT=1
  else
    rm -rf "$J"
  fi
}

verb_run() {
  if [ -n "${CUR_G:-}" ]; then
    err "run: a trial is started; stop it first"
    return 3
  fi
  trial_start run || return $?
  trial_go
  verb_stop
}

verb_start() {
  if [ -n "${CUR_G:-}" ]; then
    err "start: a trial is started already; stop it first"
    return 3
  fi
  trial_start start
}

verb_go() {
  if [ -z "${CUR_G:-}" ]; then
    err "go: no trial is started"
    return 2
  fi
  if [ -s "$J/go" ]; then
    err "go: the trial is released already"
    return 2
  fi
  trial_go
}

# This host's jobs have ended: what they did. A trial without monitors ends here; one
# with monitors goes on until stop.
verb_wait() {
  if [ -z "${CUR_G:-}" ] || [ "$TRIAL_WAITED" = 1 ]; then
    err "wait: no trial is started, or its jobs were reported already"
    return 2
  fi
  trial_jobs
  vw_rc=$?
  [ "$TM" -gt 0 ] || trial_end
  return "$vw_rc"
}

# Ends the trial: what its jobs did (unless wait said it), then its monitors stopped.
verb_stop() {
  if [ -z "${CUR_G:-}" ]; then
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
  [ -d "$J" ] || return 0
  first_line "$J/owner"
  # A jobs dir left by a dead agent lists pids that may belong to anyone by now.
  # shellcheck disable=SC2086 # "PID START"
  [ -n "$LINE" ] && alive $LINE || return 0
  printf 'cancel\n' >"$J/cancel"
  ca_seen=' '
  ca_victims=
  ca_tries=0
  while [ -f "$J/pids" ]; do
    # Re-read the pid list: a job may have passed the barrier since the last look.
    while IFS= read -r ca_pid || [ -n "$ca_pid" ]; do
      case $ca_pid in
        "" | *[!0-9]*) continue ;;
      esac
      case $ca_seen in
        *" $ca_pid "*) continue ;;
      esac
      ca_seen="$ca_seen$ca_pid "
      alive "$ca_pid" || continue
      tree_pids "$ca_pid"
      # shellcheck disable=SC2086 # a list of pids
      signal_all TERM $TP
      ca_victims="$ca_victims $TP"
      printf 'killed\t%s\n' "$ca_pid"
    done 2>/dev/null <"$J/pids"
    # shellcheck disable=SC2086 # a list of pids
    any_alive $ca_victims || break
    [ "$ca_tries" -lt 20 ] || break
    sleep 0.1
    ca_tries=$((ca_tries + 1))
  done
  # shellcheck disable=SC2086 # a list of pids
  signal_all KILL $ca_victims
}

dispatch() {
  case $1 in
    hello) verb_hello ;;
    facts) verb_facts ;;
    read) verb_read ;;
    apply) verb_apply ;;
    restore) verb_restore ;;
    journal) verb_journal ;;
    run) verb_run ;;
    start) verb_start ;;
    go) verb_go ;;
    wait) verb_wait ;;
    stop) verb_stop ;;
    drop-caches) verb_drop_caches ;;
    sync) verb_sync ;;
    cancel) verb_cancel ;;
    *)
      err "unknown verb: $1"
      return 2
      ;;
  esac
}

# ---------------------------------------------------------------------------
# State directory and lock

state_refuse() {
  err "refusing the state directory $STATE: $1"
  exit 3
}

# True when the octal permission digit $1 has the write bit.
writable_digit() {
  case $1 in
    2 | 3 | 6 | 7) return 0 ;;
  esac
  return 1
}

# Creates the state directory 0700, or checks the existing one: ours, a directory (not a
# symlink), no access for group or others, in a parent nobody else can rename it in.
prepare_state() {
  case $STATE in
    /?*) ;;
    *)
      err "the state directory must be an absolute path: $STATE"
      exit 3
      ;;
  esac
  ps_parent=${STATE%/*}
  [ -n "$ps_parent" ] || ps_parent=/
  if [ ! -e "$STATE" ] && [ ! -h "$STATE" ]; then
    [ -d "$ps_parent" ] || mkdir -p -- "$ps_parent" 2>/dev/null
    if ! mkdir -m 0700 -- "$STATE" 2>/dev/null && [ ! -d "$STATE" ]; then
      err "cannot create the state directory $STATE"
      exit 3
    fi
  fi
  [ ! -h "$STATE" ] || state_refuse "it is a symbolic link"
  [ -d "$STATE" ] || state_refuse "it is not a directory"
  ps_stat=$(stat -c '%u %a' -- "$STATE" "$ps_parent" 2>/dev/null) || state_refuse "cannot stat it"
  # shellcheck disable=SC2086 # "UID MODE" of the directory, then of its parent
  set -- $ps_stat
  [ "$1" = "$UID_NOW" ] || state_refuse "it belongs to uid $1, not to $UID_NOW (this agent)"
  case $2 in
    *00) ;;
    *) state_refuse "its mode is $2: group and others must have no access (chmod 700 it)" ;;
  esac
  [ "$3" = 0 ] || [ "$3" = "$UID_NOW" ] || state_refuse "its parent $ps_parent belongs to uid $3"
  ps_mode=$4
  ps_other=${ps_mode#"${ps_mode%?}"}
  ps_group=${ps_mode%?}
  ps_group=${ps_group#"${ps_group%?}"}
  if writable_digit "$ps_other" || writable_digit "$ps_group"; then
    case $ps_mode in
      [1357]???) ;; # sticky: nobody else may rename or remove it
      *) state_refuse "its parent $ps_parent is writable by others (mode $ps_mode)" ;;
    esac
  fi
  rm -rf "$T"
  if ! mkdir "$T"; then
    err "cannot create $T"
    exit 3
  fi
  MYSTART=
  proc_stat "$$" && MYSTART=$PS_START
  trap cleanup EXIT
  # Test hook: with an explicit TUNELAB_STATE, a boot id in the file fake-boot-id there
  # stands in for the kernel's, so a test can play a reboot. Never on a real host.
  if [ -n "${TUNELAB_STATE:-}" ] && [ -f "$STATE/fake-boot-id" ]; then
    first_line "$STATE/fake-boot-id"
    case $LINE in
      "" | *[!0-9a-f-]*) err "ignoring $STATE/fake-boot-id: not a boot id" ;;
      *) BOOT=$LINE ;;
    esac
  fi
}

# shellcheck disable=SC2317 # reached through the EXIT trap
cleanup() {
  trap '' INT TERM HUP
  if [ -n "${CUR_G:-}" ]; then
    printf 'cancel\n' >"$J/cancel" 2>/dev/null
    # In a fresh shell: bash, ended by a signal while its read builtin waited for input,
    # fails every read of its exit trap, and group_end reads /proc with it. Should this
    # fail anyway, jobs/ stays for the next agent, which ends the group.
    "$SELF_SH" "$0" __end "$CUR_G" "$CUR_GSTART" && rm -rf "$J"
  elif [ "${JOBS_KEPT:-0}" = 1 ]; then
    rm -rf "$J"
  fi
  [ -z "${READER:-}" ] || group_end "$READER" "$READER_START"
  rm -rf "$T"
  if [ "${LOCKED:-0}" = 1 ]; then
    first_line "$LOCK/pid"
    [ "$LINE" != "$$" ] || rm -rf "$LOCK"
  fi
}

# Ends what a dead or replaced agent left running: its reader ("PID START" in $1) and
# the trial of a run whose agent is gone. Reports each process in $T/ended.
end_leftovers() {
  if [ -n "$1" ]; then
    # shellcheck disable=SC2086 # "PID START"
    group_end $1 report >>"$T/ended"
  fi
  [ -d "$J" ] || return 0
  first_line "$J/owner"
  # shellcheck disable=SC2086 # "PID START"
  if [ -n "$LINE" ] && alive $LINE; then
    return 0
  fi
  first_line "$J/pgid"
  if [ -n "$LINE" ]; then
    # shellcheck disable=SC2086 # "PGID START"
    group_end $LINE report >>"$T/ended"
  fi
  rm -rf "$J"
}

# Replaces a serve whose input has ended (its controller is gone): its reader first, so
# it cannot start a dead-man restore, then the agent, which ends its trial and exits
# without restoring; the new holder's controller restores instead.
take_over() {
  err "taking over from agent pid $1 (experiment ${3:-unnamed}): its controller is gone"
  report_ended "$1" >>"$T/ended"
  first_line "$LOCK/reader"
  if [ -n "$LINE" ]; then
    # shellcheck disable=SC2086 # "PID START"
    group_end $LINE report >>"$T/ended"
  fi
  kill -s TERM "$1" 2>/dev/null
  to_tries=0
  while alive "$1" "$2" && [ "$to_tries" -lt 100 ]; do
    sleep 0.1
    to_tries=$((to_tries + 1))
  done
  if alive "$1" "$2"; then
    kill -s KILL "$1" 2>/dev/null
    sleep 0.1
  fi
}

# Takes the one lock of this state directory for $1 (serve, or a one-shot verb that
# writes). A holder whose input ended is taken over at once, a dead one's lock is stale;
# a live one is waited for up to TUNELAB_LOCK_WAIT seconds, then refused (status 3).
# A flock guard makes every look-and-take atomic against other agents.
lock_take() {
  if ! exec 8>>"$STATE/lock.guard"; then
    err "cannot open $STATE/lock.guard"
    return 3
  fi
  lt_waited=0
  while :; do
    if ! flock -w 60 8; then
      err "cannot take $STATE/lock.guard (flock from util-linux is needed)"
      exec 8>&-
      return 3
    fi
    if mkdir "$LOCK" 2>/dev/null; then
      printf '%s\n' "$BOOT" >"$LOCK/boot"
      printf '%s\n' "$MYSTART" >"$LOCK/start"
      printf '%s\n' "$1" >"$LOCK/verb"
      printf '%s\n' "$EXPERIMENT" >"$LOCK/experiment"
      printf '%s\n' "$$" >"$LOCK/pid"
      LOCKED=1
      flock -u 8
      exec 8>&-
      return 0
    fi
    first_line "$LOCK/pid"
    lt_pid=$LINE
    first_line "$LOCK/start"
    lt_start=$LINE
    first_line "$LOCK/boot"
    lt_boot=$LINE
    first_line "$LOCK/verb"
    lt_verb=${LINE:-serve}
    first_line "$LOCK/experiment"
    lt_exp=$LINE
    first_line "$LOCK/reader"
    lt_reader=$LINE
    if [ -z "$lt_pid" ] || { [ -n "$lt_boot" ] && [ "$lt_boot" != "$BOOT" ]; } ||
      ! alive "$lt_pid" "$lt_start"; then
      err "taking over the stale lock $LOCK (pid ${lt_pid:-unknown})"
      end_leftovers "$lt_reader"
      rm -rf "$LOCK"
    elif [ -e "$LOCK/orphan" ]; then
      take_over "$lt_pid" "$lt_start" "$lt_exp"
      end_leftovers ""
      rm -rf "$LOCK"
    elif [ "$lt_waited" -lt "${LOCK_WAIT}0" ]; then
      # A controller that was just killed: its agent notices the end of its input in a
      # moment and can then be taken over.
      flock -u 8
      lt_waited=$((lt_waited + 1))
      sleep 0.1
    else
      flock -u 8
      exec 8>&-
      lt_what="$lt_verb"
      [ -z "$lt_exp" ] || lt_what="$lt_what of experiment $lt_exp"
      if [ "$1" = serve ]; then
        err "another agent (pid $lt_pid, $lt_what) is serving from $STATE; not starting"
      else
        err "$1 refused: a live agent (pid $lt_pid, $lt_what) holds $LOCK; stop that run first"
      fi
      return 3
    fi
  done
}

# Scratch dirs of agents that died without cleaning up.
clean_stale_scratch() {
  for cs_dir in "$STATE"/tmp.*; do
    [ -d "$cs_dir" ] || continue
    cs_pid=${cs_dir##*.}
    case $cs_pid in
      "" | *[!0-9]*) continue ;;
    esac
    kill -0 "$cs_pid" 2>/dev/null || rm -rf "$cs_dir"
  done
}

# ---------------------------------------------------------------------------
# serve: a reader process owns stdin and forwards every line to the agent through a
# FIFO, ">" + line; when stdin ends it sends "!eof", marks the lock orphaned (a new
# agent may take over from then on) and, after the grace period, stops a run still in
# progress and sends "!deadman". So the end of input is noticed even while the agent
# waits for a workload.

reader_main() {
  # $1 FIFO, $2 agent pid, $3 its start time
  trap '' INT HUP
  exec 5>"$1" || exit 1
  while IFS= read -r rd_line || [ -n "$rd_line" ]; do
    printf '>%s\n' "$rd_line" >&5 || exit 0
  done
  alive "$2" "$3" || exit 0
  first_line "$LOCK/pid"
  [ "$LINE" != "$2" ] || : >"$LOCK/orphan"
  printf '!eof\n' >&5 || exit 0
  sleep "$GRACE"
  alive "$2" "$3" || exit 0
  first_line "$J/owner"
  if [ "$LINE" = "$2 $3" ]; then
    printf 'cancel\n' >"$J/cancel"
    first_line "$J/pgid"
    # shellcheck disable=SC2086 # "PGID START"
    [ -z "$LINE" ] || group_end $LINE
  fi
  printf '!deadman\n' >&5
  exit 0
}

# The input ended. Nothing journaled: exit now. Otherwise wait for the reader's
# "!deadman" (a new agent may take over meanwhile) and restore the journal.
serve_eof() {
  [ -f "$JOURNAL" ] || exit 0
  err "input ended with settings journaled: restoring them in $GRACE s unless a controller takes over"
  while :; do
    IFS= read -r se_msg || sleep 0.1
    [ "$se_msg" != "!deadman" ] || break
  done
  # A restore is not cut in half.
  trap '' TERM HUP
  : >"$P"
  verb_restore >"$R" 2>&1
  while IFS= read -r se_out || [ -n "$se_out" ]; do
    err "dead-man restore: $se_out"
  done <"$R"
  exit 0
}

serve() {
  # The controller handles Ctrl-C itself and then sends cancel and restore. Writes to
  # a vanished controller fail quietly: the reader tells the end of input. (A caught
  # PIPE, not an ignored one, so workloads start with the default action.)
  trap '' INT
  trap : PIPE
  trap 'exit 129' HUP
  trap 'exit 143' TERM
  EXPERIMENT=${TUNELAB_EXPERIMENT:-}
  EXPERIMENT=${EXPERIMENT%%"$NL"*}
  prepare_state
  lock_take serve || exit $?
  clean_stale_scratch
  if ! mkfifo -m 0600 "$T/requests"; then
    err "cannot create $T/requests"
    exit 3
  fi
  exec 3<&0
  setsid "$SELF_SH" "$0" __reader "$T/requests" "$$" "$MYSTART" <&3 >/dev/null 2>&1 &
  READER=$!
  READER_START=
  proc_stat "$READER" && READER_START=$PS_START
  printf '%s %s\n' "$READER" "$READER_START" >"$LOCK/reader"
  # Read and write: the FIFO never reports end of file to us.
  exec 3<&- 0<>"$T/requests"
  if [ -s "$T/ended" ]; then
    while IFS= read -r se_out || [ -n "$se_out" ]; do
      err "ended a leftover process: $se_out"
    done <"$T/ended"
  fi
  while :; do
    IFS= read -r se_msg || continue
    case $se_msg in
      ">"*) se_header=${se_msg#>} ;;
      "!eof") serve_eof ;;
      *) continue ;;
    esac
    [ -n "$se_header" ] || continue
    se_verb=${se_header%% *}
    se_n=0
    se_seq=
    case $se_header in
      *" "*)
        se_n=${se_header#* }
        case $se_n in
          *" "*)
            se_seq=${se_n#* }
            se_n=${se_n%% *}
            ;;
        esac
        ;;
    esac
    # An optional sequence number, echoed in the status line: the controller tells the
    # answer it awaits from a late one. A bad one makes the whole header bad.
    case $se_seq in
      *[!0-9]*)
        err "bad request header (want 'VERB N [SEQ]'): $se_header"
        printf '$ 2\n'
        continue
        ;;
    esac
    case $se_n in
      "" | *[!0-9]*)
        err "bad request header (want 'VERB N [SEQ]'): $se_header"
        printf '$ 2%s\n' "${se_seq:+ $se_seq}"
        continue
        ;;
    esac
    se_i=0
    se_cut=0
    PAYLOAD=
    {
      while [ "$se_i" -lt "$se_n" ]; do
        IFS= read -r se_line || continue
        case $se_line in
          ">"*)
            printf '%s\n' "${se_line#>}"
            PAYLOAD=$PAYLOAD${se_line#>}$NL
            ;;
          *)
            # The input ended in the middle of this request: it is dropped.
            se_cut=1
            break
            ;;
        esac
        se_i=$((se_i + 1))
      done
    } >"$P"
    [ "$se_cut" = 0 ] || serve_eof
    PAYLOAD_OK=1
    # In this shell, not a subshell, and prefixed by a builtin loop: on a small VM
    # every fork costs milliseconds, and a phase of a trial should cost one round trip.
    # A bulky answer (whole outputs) goes through sed: the builtin reads byte by byte.
    BULK=0
    dispatch "$se_verb" </dev/null >"$R"
    se_rc=$?
    if [ "$BULK" = 1 ]; then
      sed 's/^/|/' "$R"
    else
      while IFS= read -r se_out || [ -n "$se_out" ]; do
        printf '|%s\n' "$se_out"
      done <"$R"
    fi
    printf '$ %s%s\n' "$se_rc" "${se_seq:+ $se_seq}"
  done
}

one_shot() {
  EXPERIMENT=
  case $1 in
    start | go | wait | stop)
      # A started trial lives with the agent that started it: only a serve can go on.
      err "$1 is a serve verb (start, go, wait and stop belong to one agent process)"
      exit 2
      ;;
  esac
  prepare_state
  case $1 in
    read | apply | run) cat >"$P" ;;
    restore) if [ -t 0 ]; then : >"$P"; else cat >"$P"; fi ;;
    *) : >"$P" ;;
  esac
  case $1 in
    apply | restore | run)
      # Killed by a signal, the EXIT trap still releases the lock and ends the trial.
      trap 'exit 129' HUP
      trap 'exit 130' INT
      trap 'exit 143' TERM
      lock_take "$1" || exit $?
      [ ! -s "$T/ended" ] || cat "$T/ended"
      ;;
  esac
  dispatch "$1" </dev/null
  exit $?
}

case $1 in
  __reader)
    [ $# -eq 4 ] || exit 2
    reader_main "$2" "$3" "$4"
    ;;
  __end)
    [ $# -eq 3 ] || exit 2
    group_end "$2" "$3"
    exit 0
    ;;
esac
if [ $# -ne 1 ]; then
  err "usage: sh tunelab-agent.sh VERB|serve (see docs/agent.md)"
  exit 2
fi
case $1 in
  serve) serve ;;
  *) one_shot "$1" ;;
esac

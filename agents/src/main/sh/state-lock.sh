# shellcheck shell=sh
# ---------------------------------------------------------------------------
# State directory and lock (docs/agent.md, "State on the host" and "The lock").

state_refuse() {
  err "refusing the state directory $STATE: $1"
  exit 3
}

# True when the octal mode $1 (as stat's %a) lets group or others write.
mode_writable() {
  case $1 in
    *[2367]? | *[2367]) return 0 ;;
  esac
  return 1
}

# Creates the state directory 0700, or checks the existing one (and, with $1 = writes, its
# free space): ours, a directory (not a symlink) nobody else may write, in ancestors nobody
# else can rename it in.
prepare_state() {
  ps_writes=${1:-}
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
  # The directory, then every ancestor of it (its parent resolved: a symlinked /home is
  # checked where it leads), as OpenSSH's StrictModes checks them.
  ps_dir=$(readlink -f -- "$ps_parent" 2>/dev/null) || state_refuse "cannot resolve its parent"
  set -- "$STATE"
  while :; do
    set -- "$@" "$ps_dir"
    [ "$ps_dir" != / ] || break
    ps_dir=${ps_dir%/*}
    [ -n "$ps_dir" ] || ps_dir=/
  done
  ps_stat=$(stat -c '%u %a %n' -- "$@" 2>/dev/null) || state_refuse "cannot stat it"
  ps_line=${ps_stat%%"$NL"*}
  ps_rest=${ps_stat#*"$NL"}
  # shellcheck disable=SC2086 # "UID MODE NAME" of the directory
  set -- $ps_line
  [ "$1" = "$UID_NOW" ] || state_refuse "it belongs to uid $1, not to $UID_NOW (this agent)"
  mode_writable "$2" && state_refuse "its mode is $2: group and others must not write to it (chmod 700 it)"
  # Each ancestor: owned by root or this uid, and writable by nobody else unless sticky
  # (then nobody else may rename or remove what is ours in it, as in /tmp).
  while [ -n "$ps_rest" ]; do
    ps_line=${ps_rest%%"$NL"*}
    case $ps_rest in
      *"$NL"*) ps_rest=${ps_rest#*"$NL"} ;;
      *) ps_rest= ;;
    esac
    ps_uid=${ps_line%% *}
    ps_line=${ps_line#* }
    ps_mode=${ps_line%% *}
    ps_name=${ps_line#* }
    [ "$ps_uid" = 0 ] || [ "$ps_uid" = "$UID_NOW" ] ||
      state_refuse "its ancestor $ps_name belongs to uid $ps_uid"
    if mode_writable "$ps_mode"; then
      case $ps_mode in
        [1357]???) ;;
        *) state_refuse "its ancestor $ps_name is writable by others (mode $ps_mode)" ;;
      esac
    fi
  done
  [ "$ps_writes" != writes ] || state_room
  rm -rf "$SCRATCH"
  if ! mkdir "$SCRATCH"; then
    err "cannot create $SCRATCH"
    exit 3
  fi
  AGENT_START=
  proc_stat "$$" && AGENT_START=$PS_START
  trap cleanup EXIT
  # Test hook: with an explicit TUNELAB_STATE, a boot id in the file fake-boot-id there
  # stands in for the kernel's, so a test can play a reboot. Never on a real host.
  if [ -n "${TUNELAB_STATE:-}" ] && [ -f "$STATE/fake-boot-id" ]; then
    first_line "$STATE/fake-boot-id"
    case $FIRST_LINE in
      "" | *[!0-9a-f-]*) err "ignoring $STATE/fake-boot-id: not a boot id" ;;
      *) BOOT=$FIRST_LINE ;;
    esac
  fi
}

# shellcheck disable=SC2317 # reached through the EXIT trap
cleanup() {
  trap '' INT TERM HUP
  if [ -n "${TRIAL_PGID:-}" ]; then
    printf 'cancel\n' >"$JOBS_DIR/cancel" 2>/dev/null
    # In a fresh shell: bash, ended by a signal while its read builtin waited for input,
    # fails every read of its exit trap, and group_end reads /proc with it. Should this
    # fail anyway, jobs/ stays for the next agent, which ends the group.
    "$SELF_SH" "$0" __end "$TRIAL_PGID" "$TRIAL_PGID_START" && rm -rf "$JOBS_DIR"
  elif [ "${JOBS_KEPT:-0}" = 1 ]; then
    leader_drop
    rm -rf "$JOBS_DIR"
  fi
  [ -z "${READER:-}" ] || group_end "$READER" "$READER_START"
  if [ -n "${SNAP_PID:-}" ]; then
    # The end of file on its input ends the snapshot reader: gone before the agent is.
    exec 8>&-
    wait "$SNAP_PID"
  fi
  rm -rf "$SCRATCH"
  if [ "${LOCKED:-0}" = 1 ]; then
    first_line "$LOCK/pid"
    [ "$FIRST_LINE" != "$$" ] || rm -rf "$LOCK"
  fi
}

# Ends what a dead or replaced agent left running: its reader ("PID START" in $1) and
# the trial of a run whose agent is gone. Reports each process in $SCRATCH/ended.
end_leftovers() {
  if [ -n "$1" ]; then
    # shellcheck disable=SC2086 # "PID START"
    group_end $1 report >>"$SCRATCH/ended"
  fi
  [ -d "$JOBS_DIR" ] || return 0
  first_line "$JOBS_DIR/owner"
  # shellcheck disable=SC2086 # "PID START"
  if [ -n "$FIRST_LINE" ] && alive $FIRST_LINE; then
    return 0
  fi
  first_line "$JOBS_DIR/pgid"
  if [ -n "$FIRST_LINE" ]; then
    # shellcheck disable=SC2086 # "PGID START"
    group_end $FIRST_LINE report >>"$SCRATCH/ended"
  fi
  # A leader forked for a next trial ends by itself once its agent is gone; one that has not
  # yet is no workload's, so nothing to report.
  first_line "$JOBS_DIR/leader"
  # shellcheck disable=SC2086 # "PID START"
  [ -z "$FIRST_LINE" ] || group_end $FIRST_LINE
  rm -rf "$JOBS_DIR"
}

# Replaces a serve whose input has ended (its controller is gone): its reader first, so
# it cannot start a dead-man restore, then the agent, which ends its trial and exits
# without restoring; the new holder's controller restores instead.
take_over() {
  err "taking over from agent pid $1 (experiment ${3:-unnamed}): its controller is gone"
  report_ended "$1" >>"$SCRATCH/ended"
  first_line "$LOCK/reader"
  if [ -n "$FIRST_LINE" ]; then
    # shellcheck disable=SC2086 # "PID START"
    group_end $FIRST_LINE report >>"$SCRATCH/ended"
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
    if [ ! -e "$LOCK" ] && [ ! -h "$LOCK" ]; then
      # Written whole in the scratch directory, then renamed into place: a lock is never
      # seen without its pid, whatever a full disk does to the writes.
      if ! lock_write "$1" || ! mv -T -- "$SCRATCH/lock" "$LOCK" 2>/dev/null; then
        rm -rf "$SCRATCH/lock"
        flock -u 8
        exec 8>&-
        err "cannot write the lock $LOCK (is its file system full?); not starting"
        return 3
      fi
      LOCKED=1
      flock -u 8
      exec 8>&-
      return 0
    fi
    first_line "$LOCK/pid"
    lt_pid=$FIRST_LINE
    first_line "$LOCK/start"
    lt_start=$FIRST_LINE
    first_line "$LOCK/boot"
    lt_boot=$FIRST_LINE
    first_line "$LOCK/verb"
    lt_verb=${FIRST_LINE:-serve}
    first_line "$LOCK/experiment"
    lt_exp=$FIRST_LINE
    first_line "$LOCK/reader"
    lt_reader=$FIRST_LINE
    lt_known=1
    case $lt_pid in
      "" | *[!0-9]*) lt_known=0 ;;
    esac
    if { [ -n "$lt_boot" ] && [ "$lt_boot" != "$BOOT" ]; } ||
      { [ "$lt_known" = 1 ] && ! alive "$lt_pid" "$lt_start"; }; then
      err "taking over the stale lock $LOCK (pid ${lt_pid:-unknown})"
      end_leftovers "$lt_reader"
      rm -rf "$LOCK"
    elif [ "$lt_known" = 0 ]; then
      # No pid to tell its holder by: this agent never leaves one so, but whoever made it
      # may be alive and still writing it. Waited for as a live holder, never taken over.
      if [ "$lt_waited" -lt "${LOCK_WAIT}0" ]; then
        flock -u 8
        lt_waited=$((lt_waited + 1))
        sleep 0.1
        continue
      fi
      flock -u 8
      exec 8>&-
      err "$1 refused: $LOCK has no readable pid, so its holder may be alive; if no run is in progress on this host, remove it (rm -r $LOCK)"
      return 3
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

# Writes the files of a lock for verb $1 into $SCRATCH/lock; false when a write fails.
lock_write() {
  rm -rf "$SCRATCH/lock"
  mkdir "$SCRATCH/lock" &&
    printf '%s\n' "$BOOT" >"$SCRATCH/lock/boot" &&
    printf '%s\n' "$AGENT_START" >"$SCRATCH/lock/start" &&
    printf '%s\n' "$1" >"$SCRATCH/lock/verb" &&
    printf '%s\n' "$EXPERIMENT" >"$SCRATCH/lock/experiment" &&
    printf '%s\n' "$$" >"$SCRATCH/lock/pid"
} 2>/dev/null

# Refuses (exit 3) a state directory whose file system has less than STATE_MIN_FREE_KB
# free, before the first write of a serve, apply or run: what it keeps (lock, journal, a
# trial's files and kept output) must fit. Nothing is read or written then. Restore is never
# refused so: it frees what it can.
state_room() {
  sr_df=$(df -Pk -- "$STATE" 2>/dev/null) || return 0
  # shellcheck disable=SC2086 # the fields of df's last line
  set -- ${sr_df##*"$NL"}
  sr_free=${4:-}
  case $sr_free in
    "" | *[!0-9]*) return 0 ;;
  esac
  [ "$sr_free" -ge "$STATE_MIN_FREE_KB" ] ||
    state_refuse "its file system has $sr_free KiB free, and a run needs $STATE_MIN_FREE_KB KiB there (the lock, the journal, a trial's files and kept output); free some space or set TUNELAB_STATE to a directory with room"
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

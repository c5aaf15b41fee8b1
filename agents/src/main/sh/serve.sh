# shellcheck shell=sh
# ---------------------------------------------------------------------------
# serve: a reader process owns stdin and forwards every line to the agent through a
# FIFO, ">" + line; when stdin ends it sends "!eof", marks the lock orphaned (a new
# agent may take over from then on) and, after the grace period, stops a run still in
# progress and sends "!deadman". So the end of input is noticed even while the agent
# waits for a workload.

reader_main() {
  # $1 FIFO, $2 agent pid, $3 its start time, $4 the file of the kernel's log (empty: none)
  trap '' INT HUP
  exec 5>"$1" || exit 1
  # The agent's copy of the kernel log (kmsg.sh, KMSG_FILE): one dd for the whole serve, in
  # this process group, so that whatever ends the reader (the agent's exit, a takeover) ends
  # it too. conv=noerror: records the kernel overwrote before dd read them are skipped. The
  # file size limit is the copy's cap: past it the write fails (EFBIG, SIGXFSZ ignored).
  if [ -n "$4" ]; then
    (
      ulimit -f "$KMSG_COPY_BLOCKS" 2>/dev/null
      trap '' XFSZ
      exec dd if=/dev/kmsg of="$4" bs=65536 conv=noerror,notrunc oflag=append status=none
    ) </dev/null 2>/dev/null &
    rd_dd=$!
    printf '%s\n' "$rd_dd" >"$4.pid"
    # Whichever way this process ends but a signal to its group (which reaches the dd too):
    # a killed agent's reader ends at the end of its input, and must not leave the dd.
    trap 'kill "$rd_dd" 2>/dev/null' EXIT
  fi
  # A request (its header "VERB N [SEQ]" and N payload lines) goes on in one write, in
  # pieces of 64 lines when longer: the agent reads it without waiting for this process
  # line by line, which on a loaded host costs a wake-up each.
  rd_pending=0
  rd_lines=0
  rd_buf=
  while IFS= read -r rd_line || [ -n "$rd_line" ]; do
    rd_buf="$rd_buf>$rd_line$NL"
    rd_lines=$((rd_lines + 1))
    if [ "$rd_pending" -gt 0 ]; then
      rd_pending=$((rd_pending - 1))
    else
      rd_pending=0
      case $rd_line in
        *" "*)
          rd_pending=${rd_line#* }
          rd_pending=${rd_pending%% *}
          ;;
      esac
      case $rd_pending in
        "" | *[!0-9]*) rd_pending=0 ;;
      esac
    fi
    if [ "$rd_pending" = 0 ] || [ "$rd_lines" -ge 64 ]; then
      printf '%s' "$rd_buf" >&5 || exit 0
      rd_buf=
      rd_lines=0
    fi
  done
  if [ -n "$rd_buf" ]; then
    printf '%s' "$rd_buf" >&5 || exit 0
  fi
  alive "$2" "$3" || exit 0
  first_line "$LOCK/pid"
  [ "$FIRST_LINE" != "$2" ] || : >"$LOCK/orphan"
  printf '!eof\n' >&5 || exit 0
  sleep "$GRACE"
  alive "$2" "$3" || exit 0
  first_line "$JOBS_DIR/owner"
  if [ "$FIRST_LINE" = "$2 $3" ]; then
    printf 'cancel\n' >"$JOBS_DIR/cancel"
    first_line "$JOBS_DIR/pgid"
    # shellcheck disable=SC2086 # "PGID START"
    [ -z "$FIRST_LINE" ] || group_end $FIRST_LINE
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
  : >"$PAYLOAD_FILE"
  verb_restore >"$RESPONSE_FILE" 2>&1
  while IFS= read -r se_out || [ -n "$se_out" ]; do
    err "dead-man restore: $se_out"
  done <"$RESPONSE_FILE"
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
  prepare_state writes
  lock_take serve || exit $?
  clean_stale_scratch
  if ! mkfifo -m 0600 "$SCRATCH/requests"; then
    err "cannot create $SCRATCH/requests"
    exit 3
  fi
  exec 3<&0
  KMSG_FILE=
  if [ -r /dev/kmsg ]; then
    KMSG_FILE=$SCRATCH/kmsg
    kmsg_tick
  fi
  setsid "$SELF_SH" "$0" __reader "$SCRATCH/requests" "$$" "$AGENT_START" "$KMSG_FILE" \
    <&3 >/dev/null 2>&1 &
  READER=$!
  READER_START=
  proc_stat "$READER" && READER_START=$PS_START
  # A takeover ends this reader by what the file says: without it, a dead-man restore
  # could run under the next holder.
  if ! printf '%s %s\n' "$READER" "$READER_START" 2>/dev/null >"$LOCK/reader"; then
    err "cannot write $LOCK/reader (is its file system full?); not starting"
    exit 3
  fi
  # Read and write: the FIFO never reports end of file to us.
  exec 3<&- 0<>"$SCRATCH/requests"
  snap_start
  LEADER_AHEAD=1
  if [ -s "$SCRATCH/ended" ]; then
    while IFS= read -r se_out || [ -n "$se_out" ]; do
      err "ended a leftover process: $se_out"
    done <"$SCRATCH/ended"
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
    } >"$PAYLOAD_FILE"
    [ "$se_cut" = 0 ] || serve_eof
    PAYLOAD_OK=1
    # In this shell, not a subshell, and relayed by the snapshot reader (snap_relay) or
    # prefixed by a builtin loop: on a small VM every fork costs milliseconds, and a phase
    # of a trial should cost one round trip. Without the reader, a bulky answer (whole
    # outputs) goes through sed: the builtin reads byte by byte.
    BULKY_RESPONSE=0
    # Appended to: the snapshot reader appends its snapshots between the verb's own lines.
    : >"$RESPONSE_FILE"
    dispatch "$se_verb" </dev/null >>"$RESPONSE_FILE"
    se_rc=$?
    if snap_relay "\$ $se_rc${se_seq:+ $se_seq}"; then
      :
    elif [ "$BULKY_RESPONSE" = 1 ]; then
      sed 's/^/|/' "$RESPONSE_FILE"
      printf '$ %s%s\n' "$se_rc" "${se_seq:+ $se_seq}"
    else
      # In one write with its status line (in pieces of 64 lines when longer): the
      # controller's side wakes once per answer, not once per line.
      se_out_buf=
      se_lines=0
      while IFS= read -r se_out || [ -n "$se_out" ]; do
        se_out_buf="$se_out_buf|$se_out$NL"
        se_lines=$((se_lines + 1))
        if [ "$se_lines" -ge 64 ]; then
          printf '%s' "$se_out_buf"
          se_out_buf=
          se_lines=0
        fi
      done <"$RESPONSE_FILE"
      printf '%s$ %s%s\n' "$se_out_buf" "$se_rc" "${se_seq:+ $se_seq}"
    fi
    # After an answer that did not fork it (trial_end): the next trial's leader.
    if [ "$JOBS_KEPT" = 1 ] && [ -z "$LEADER_PID" ] && [ -z "${TRIAL_PGID:-}" ]; then
      leader_fork
    fi
  done
}

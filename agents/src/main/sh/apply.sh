# shellcheck shell=sh
# ---------------------------------------------------------------------------
# apply: a request's lines are checked, confined, journaled, written and read back, each
# step over the whole payload before the next (docs/agent.md, "apply"). The steps share
# the request's state: APPLY_REFUSED (a path left the allowed trees: nothing is written),
# APPLY_SAVE_FAILED (an original could not be journaled: nothing is written),
# APPLY_UNJOURNALED ("PATH<TAB>REASON" lines: a set whose own original is unreadable, not
# written) and APPLY_RC (the request's status).

verb_apply() {
  payload_load
  APPLY_BAD=0
  payload_each apply_check_line
  [ "$APPLY_BAD" = 0 ] || return 2

  resolve_payload apply || RESOLVED_MAP=$NL
  FAILED_PATHS=$NL
  APPLY_REFUSED=0
  payload_each apply_confine_line

  journal_drop_stale
  journal_load
  JOURNAL_UNSYNCED=0
  SAVEPAIR_PATHS=$NL
  APPLY_SAVE_FAILED=0
  APPLY_SAVE_REASON=
  APPLY_UNJOURNALED=$NL
  if [ "$APPLY_REFUSED" = 0 ]; then
    payload_each apply_save_line
    # Every path about to be written is journaled first, with what the write changes
    # besides it, whether or not the controller asked for it.
    payload_each apply_journal_line
    if [ "$JOURNAL_UNSYNCED" = 1 ] && ! journal_sync; then
      APPLY_SAVE_FAILED=1
      APPLY_SAVE_REASON=$FAIL_REASON
    fi
  fi

  APPLY_RC=0
  [ "$APPLY_SAVE_FAILED" = 0 ] && [ "$APPLY_REFUSED" = 0 ] || APPLY_RC=1
  payload_each apply_write_line
  apply_read_back
  # A "health" line: the host's before-snapshot of a trial that has no request of its own
  # here (its processes and monitors are on other hosts), in the answer that is there anyway.
  case $NL$PAYLOAD in
    *"${NL}health$NL"*) trial_health before ;;
  esac
  return "$APPLY_RC"
}

# A malformed line rejects the whole request before anything is read (APPLY_BAD=1).
apply_check_line() {
  case $1 in
    "" | health | "save$TAB"?* | "check$TAB"?* | "savepair$TAB"?*"$TAB"?* | "set$TAB"?*"$TAB"*) ;;
    *)
      err "apply: bad payload line: $1"
      APPLY_BAD=1
      ;;
  esac
}

# A path that leaves the allowed trees refuses the whole request (APPLY_REFUSED=1).
apply_confine_line() {
  line_paths "$1" || return 0
  ac_paths=$LINE_PATHS
  while [ -n "$ac_paths" ]; do
    ac_path=${ac_paths%%"$NL"*}
    case $ac_paths in
      *"$NL"*) ac_paths=${ac_paths#*"$NL"} ;;
      *) ac_paths= ;;
    esac
    if ! path_allowed "$ac_path"; then
      err "apply: $ac_path: $FAIL_REASON"
      apply_fail_once "$ac_path" "$FAIL_REASON"
      APPLY_REFUSED=1
    fi
  done
}

# Prints "fail" for path $1 once per request ($2: the message).
apply_fail_once() {
  case $FAILED_PATHS in
    *"$NL$1$NL"*) return 0 ;;
  esac
  FAILED_PATHS=$FAILED_PATHS$1$NL
  printf 'fail\t%s\t%s\n' "$1" "$2"
}

# Journals what a save or savepair line names; a failure holds back every write.
apply_save_line() {
  as_rest=${1#*"$TAB"}
  case $1 in
    "save$TAB"*)
      path_allowed "$as_rest"
      save_path "$as_rest" "$RESOLVED_PATH"
      ;;
    "savepair$TAB"*)
      as_a=${as_rest%%"$TAB"*}
      as_b=${as_rest#*"$TAB"}
      SAVEPAIR_PATHS=$SAVEPAIR_PATHS$as_a$TAB$as_b$NL
      path_allowed "$as_a"
      as_ra=$RESOLVED_PATH
      path_allowed "$as_b"
      save_pair "$as_a" "$as_ra" "$as_b" "$RESOLVED_PATH"
      ;;
    *) return 0 ;;
  esac
  case $? in
    0) ;;
    1)
      printf 'fail\t%s\tcannot journal the original value: %s\n' "$UNSAVED_PATH" "$FAIL_REASON"
      APPLY_SAVE_FAILED=1
      ;;
    *)
      printf 'fail\t%s\t%s\n' "$UNSAVED_PATH" "$FAIL_REASON"
      APPLY_SAVE_FAILED=1
      ;;
  esac
}

# Journals what the write of a set line changes. An unreadable original holds back only
# that write; a journal that cannot grow holds back every write.
apply_journal_line() {
  [ "$APPLY_SAVE_FAILED" = 0 ] || return 0
  case $1 in
    "set$TAB"*) ;;
    *) return 0 ;;
  esac
  aj_rest=${1#*"$TAB"}
  aj_path=${aj_rest%%"$TAB"*}
  path_allowed "$aj_path"
  journal_for_write "$aj_path" "$RESOLVED_PATH"
  case $? in
    0) ;;
    1) APPLY_UNJOURNALED=$APPLY_UNJOURNALED$aj_path$TAB$FAIL_REASON$NL ;;
    *)
      printf 'fail\t%s\t%s\n' "$aj_path" "$FAIL_REASON"
      APPLY_SAVE_FAILED=1
      ;;
  esac
}

# Writes a set line's value, unless something it depends on could not be done.
apply_write_line() {
  case $1 in
    "set$TAB"*) ;;
    *) return 0 ;;
  esac
  aw_rest=${1#*"$TAB"}
  aw_path=${aw_rest%%"$TAB"*}
  if [ "$APPLY_REFUSED" = 1 ]; then
    apply_fail_once "$aw_path" "not written: the request names a refused path"
    return 0
  fi
  if [ "$APPLY_SAVE_FAILED" = 1 ]; then
    # Never write what could not be undone.
    printf 'fail\t%s\tnot written: an original value could not be journaled%s\n' "$aw_path" \
      "${APPLY_SAVE_REASON:+ ($APPLY_SAVE_REASON)}"
    return 0
  fi
  case $APPLY_UNJOURNALED in
    *"$NL$aw_path$TAB"*)
      aw_reason=${APPLY_UNJOURNALED#*"$NL$aw_path$TAB"}
      printf 'fail\t%s\tnot written: its original value cannot be journaled: %s\n' \
        "$aw_path" "${aw_reason%%"$NL"*}"
      APPLY_RC=1
      return 0
      ;;
  esac
  path_allowed "$aw_path"
  aw_rpath=$RESOLVED_PATH
  # A file an earlier write of this request created (a new scheduler's iosched/*)
  # is journaled now, before its own first write.
  if [ -e "$aw_rpath" ] && ! journal_has "$aw_path"; then
    JOURNAL_UNSYNCED=0
    if ! journal_for_write "$aw_path" "$aw_rpath"; then
      printf 'fail\t%s\tnot written: its original value cannot be journaled: %s\n' \
        "$aw_path" "$FAIL_REASON"
      APPLY_RC=1
      return 0
    fi
    if [ "$JOURNAL_UNSYNCED" = 1 ] && ! journal_sync; then
      printf 'fail\t%s\tnot written: its original value cannot be journaled: %s\n' \
        "$aw_path" "$FAIL_REASON"
      APPLY_RC=1
      return 0
    fi
  fi
  if ! put_value "$aw_rpath" "${aw_rest#*"$TAB"}"; then
    printf 'fail\t%s\t%s\n' "$aw_path" "$FAIL_REASON"
    APPLY_RC=1
  fi
}

# Prints an "eff" row per set and check line whose path is allowed, in payload order:
# every path is read back at once, after all writes.
apply_read_back() {
  set --
  ar_eff=
  ar_all=$PAYLOAD
  while [ -n "$ar_all" ]; do
    ar_line=${ar_all%%"$NL"*}
    ar_all=${ar_all#*"$NL"}
    ar_rest=${ar_line#*"$TAB"}
    case $ar_line in
      "set$TAB"*) ar_path=${ar_rest%%"$TAB"*} ;;
      "check$TAB"*) ar_path=$ar_rest ;;
      *) continue ;;
    esac
    path_allowed "$ar_path" || continue
    set -- "$@" "$RESOLVED_PATH"
    ar_eff=$ar_eff$ar_path$NL
  done
  get_values "$@"
  ar_values=$VALUES$NL
  while [ -n "$ar_eff" ]; do
    ar_value=${ar_values%%"$NL"*}
    ar_values=${ar_values#*"$NL"}
    printf 'eff\t%s\t%s\n' "${ar_eff%%"$NL"*}" "${ar_value#=}"
    ar_eff=${ar_eff#*"$NL"}
  done
}

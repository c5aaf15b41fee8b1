# shellcheck shell=sh
# ---------------------------------------------------------------------------
# Processes. Everything a trial starts is in the trial's own process group (setsid);
# the reader of a serve is in its own group too. Groups are recorded with their
# leader's start time, so a recorded number is never mistaken for a later process.

# Sets GROUP_PIDS to the live members of process group $1, except pid $2.
group_members() {
  GROUP_PIDS=
  gm_list=$(cat /proc/[0-9]*/stat 2>/dev/null | awk -v g="$1" '
      $1 ~ /^[0-9]+$/ {
        rest = $0
        if (sub(/.*\) /, "", rest) && split(rest, f, " ") >= 3 && f[3] == g) print $1
      }')
  for gm_pid in $gm_list; do
    [ "$gm_pid" != "${2:-}" ] || continue
    # Checked again by the builtin reader: a command name may hold ") " or a newline.
    if proc_stat "$gm_pid" && [ "$PS_PGRP" = "$1" ] && [ "$PS_STATE" != Z ]; then
      GROUP_PIDS="$GROUP_PIDS $gm_pid"
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
  [ -n "$GROUP_PIDS" ] || return 0
  if [ "${3:-}" = report ]; then
    for ge_pid in $GROUP_PIDS; do
      report_ended "$ge_pid"
    done
  fi
  kill -s TERM -- "-$1" 2>/dev/null
  ge_tries=0
  while [ "$ge_tries" -lt 40 ]; do
    sleep 0.05
    group_members "$1"
    [ -n "$GROUP_PIDS" ] || return 0
    ge_tries=$((ge_tries + 1))
  done
  kill -s KILL -- "-$1" 2>/dev/null
  return 0
}

# Sets TREE_PIDS to $1 and all its descendants (from /proc), parents before children.
tree_pids() {
  TREE_PIDS=$1
  tp_list=$(child_pids "$1")
  for tp_pid in $tp_list; do
    proc_stat "$tp_pid" || continue
    case " $TREE_PIDS " in
      *" $PS_PPID "*) TREE_PIDS="$TREE_PIDS $tp_pid" ;;
    esac
  done
}

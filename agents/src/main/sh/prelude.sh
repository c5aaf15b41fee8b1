#!/bin/sh
# tunelab-agent: everything tunelab does on a host, behind one small wire protocol.
# The contract is docs/agent.md. POSIX sh (dash and bash), coreutils and util-linux.
#
#   sh tunelab-agent.sh VERB    one request: payload on stdin, plain response on stdout
#   sh tunelab-agent.sh serve   requests "VERB N [SEQ]" + N lines until stdin closes;
#                               response lines prefixed "|", closed by "$ RC [SEQ]"
#
# Assembled from the modules in agents/src/main/sh (docs/agent.md, "Sources"). This
# prelude and the trial's leader after it are all that a trial's leader reads: they use
# nothing defined further down.

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

# Files and processes: what a trial's leader needs as much as the agent.

# Reads the first line of a file into FIRST_LINE (empty when the file is missing).
first_line() {
  FIRST_LINE=
  { IFS= read -r FIRST_LINE <"$1"; } 2>/dev/null
  return 0
}

# Sets MONO_NS to the kernel's monotonic clock in nanoseconds, from the header of
# /proc/timer_list ("now at N nsecs"): a builtin read of three lines, no fork. Status 1
# where that file cannot be read (it is root's; a kernel may lack it).
mono_ns() {
  MONO_NS=
  { { IFS= read -r MONO_NS && IFS= read -r MONO_NS && IFS= read -r MONO_NS; } </proc/timer_list; } 2>/dev/null
  case $MONO_NS in
    "now at "*" nsecs")
      MONO_NS=${MONO_NS#now at }
      MONO_NS=${MONO_NS% nsecs}
      ;;
    *) MONO_NS= ;;
  esac
  case $MONO_NS in
    "" | *[!0-9]*) return 1 ;;
  esac
}

# Converts seconds with an optional fraction ("0.5") to NANOSECONDS.
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
  NANOSECONDS=$((${tn_int:-0} * 1000000000 + tn_frac))
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

# Sets DESCENDANTS to the descendants of the pids given (not the pids themselves), from /proc.
descendants() {
  DESCENDANTS=
  [ $# -gt 0 ] || return 0
  ds_roots=" $* "
  ds_list=$(child_pids "$@")
  ds_seen=$ds_roots
  for ds_pid in $ds_list; do
    proc_stat "$ds_pid" || continue
    case $ds_seen in
      *" $PS_PPID "*)
        DESCENDANTS="$DESCENDANTS $ds_pid"
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

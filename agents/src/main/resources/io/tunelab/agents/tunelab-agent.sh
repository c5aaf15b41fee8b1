#!/bin/sh
# tunelab-agent: everything tunelab does on a host, behind one small wire protocol.
# The contract is docs/agent.md. POSIX sh (dash and bash) plus coreutils only.
#
#   sh tunelab-agent.sh VERB    one request: payload on stdin, plain response on stdout
#   sh tunelab-agent.sh serve   requests "VERB N [SEQ]" + N lines until stdin closes;
#                               response lines prefixed "|", closed by "$ RC [SEQ]"

AGENT_VERSION=1

# Byte semantics for sed/awk/tr, and the locale every workload runs under.
LC_ALL=C
export LC_ALL

TAB=$(printf '\t')

err() {
  printf 'tunelab-agent: %s\n' "$*" >&2
}

UID_NOW=$(id -u)
BOOT=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null) || BOOT=
[ -n "$BOOT" ] || BOOT=unknown

if [ -n "${TUNELAB_STATE:-}" ]; then
  STATE=$TUNELAB_STATE
elif [ "$UID_NOW" = 0 ]; then
  STATE=/var/tmp/tunelab-agent
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

# ---------------------------------------------------------------------------
# Values

# Sets VALUE to the file's contents on one line (lines joined with spaces). cat, not the
# read builtin: dash reads a byte at a time, and /proc/sys answers a read at a non-zero
# offset with end of file, so `read` would see "2" in a dirty_ratio of 20.
get_value() {
  VALUE=$(cat "$1") || return 1
  case $VALUE in
    *"
"*) VALUE=$(printf '%s' "$VALUE" | tr '\n' ' ') ;;
  esac
  return 0
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
  rm -f "$JOURNAL"
}

# True when $1 already has a line in the journal.
journal_has() {
  [ -f "$JOURNAL" ] || return 1
  while IFS= read -r jh_line || [ -n "$jh_line" ]; do
    case $jh_line in
      "$1$TAB"*) return 0 ;;
    esac
  done <"$JOURNAL"
  return 1
}

# Appends PATH<TAB>ORIGINAL; the caller syncs once after all its appends.
journal_add() {
  if [ ! -f "$JOURNAL" ]; then
    printf '#boot\t%s\n' "$BOOT" >"$JOURNAL" || return 1
  fi
  selected_entry "$2"
  printf '%s\t%s\n' "$1" "$SEL" >>"$JOURNAL"
}

# Forces the journal (and its directory entry) to disk. Only the journal: a global
# sync could take minutes on a host full of dirty pages in a writeback experiment.
journal_sync() {
  sync "$JOURNAL" "$STATE" 2>/dev/null || sync
}

# ---------------------------------------------------------------------------
# Processes

# Prints $1 and all its descendants (from /proc; just $1 where /proc is missing).
tree_pids() {
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v root="$1" '
    {
      rest = $0
      sub(/.*\) /, "", rest)          # drop "pid (comm) ", comm may hold spaces
      split(rest, f, " ")
      kids[f[2]] = kids[f[2]] " " $1
    }
    END {
      out = root; queue = root
      while (queue != "") {
        n = split(queue, q, " "); queue = ""
        for (i = 1; i <= n; i++) {
          if (q[i] in kids) { out = out kids[q[i]]; queue = queue kids[q[i]] }
        }
      }
      print out
    }'
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

# True when any pid among the arguments still exists.
any_alive() {
  for aa_pid in "$@"; do
    kill -0 "$aa_pid" 2>/dev/null && return 0
  done
  return 1
}

# Sends TERM to the given pids, waits up to 2 s, then KILLs the survivors.
terminate() {
  [ $# -gt 0 ] || return 0
  signal_all TERM "$@"
  te_tries=0
  while any_alive "$@" && [ "$te_tries" -lt 20 ]; do
    sleep 0.1
    te_tries=$((te_tries + 1))
  done
  signal_all KILL "$@"
}

# Reads the first line of a file into LINE (empty when the file is missing).
first_line() {
  LINE=
  { IFS= read -r LINE <"$1"; } 2>/dev/null
  return 0
}

# ---------------------------------------------------------------------------
# Verbs. Each reads its payload from "$P" and prints its response on stdout.

verb_hello() {
  printf 'agent\t%s\n' "$AGENT_VERSION"
  printf 'pid\t%s\n' "$$"
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

verb_read() {
  while IFS= read -r rd_path || [ -n "$rd_path" ]; do
    [ -n "$rd_path" ] || continue
    if [ ! -e "$rd_path" ]; then
      printf 'missing\t%s\t\n' "$rd_path"
      continue
    fi
    # Root passes access(2) for everything: only the mode bits tell a knob the
    # kernel will refuse (r--r--r--) from one it accepts; -w still catches ro mounts.
    rd_state=ro
    case $(stat -L -c %A "$rd_path" 2>/dev/null) in
      ?*w*) [ -w "$rd_path" ] && rd_state=rw ;;
    esac
    get_value "$rd_path" || VALUE=
    printf '%s\t%s\t%s\n' "$rd_state" "$rd_path" "$VALUE"
  done <"$P"
}

# Journals $1 unless it is journaled already or missing; prints a fail line otherwise.
save_path() {
  [ -e "$1" ] || return 0
  journal_has "$1" && return 0
  if ! get_value "$1" 2>"$T/err"; then
    first_line "$T/err"
    tidy_message "$LINE" "unreadable"
    printf 'fail\t%s\tcannot journal the original value: %s\n' "$1" "$MSG"
    return 1
  fi
  if ! journal_add "$1" "$VALUE"; then
    printf 'fail\t%s\tcannot append to %s\n' "$1" "$JOURNAL"
    return 1
  fi
  SAVED=1
}

# Journals whichever of an exclusive pair is active: A when it is non-zero (or B does
# not exist), else B. The kernel rejects 0 for *_bytes, so a zero A is never saved.
save_pair() {
  journal_has "$1" && return 0
  journal_has "$2" && return 0
  sp_value=0
  if [ -e "$1" ]; then
    get_value "$1" 2>/dev/null && sp_value=$VALUE
  fi
  if [ -e "$1" ] && { [ "$sp_value" != 0 ] || [ ! -e "$2" ]; }; then
    save_path "$1"
  else
    save_path "$2"
  fi
}

verb_apply() {
  ap_bad=0
  while IFS= read -r ap_line || [ -n "$ap_line" ]; do
    case $ap_line in
      "" | "save$TAB"?* | "check$TAB"?* | "savepair$TAB"?*"$TAB"?* | "set$TAB"?*"$TAB"*) ;;
      *)
        err "apply: bad payload line: $ap_line"
        ap_bad=1
        ;;
    esac
  done <"$P"
  [ "$ap_bad" = 0 ] || return 2

  journal_drop_stale
  SAVED=0
  ap_savefail=0
  while IFS= read -r ap_line || [ -n "$ap_line" ]; do
    ap_rest=${ap_line#*"$TAB"}
    case $ap_line in
      "save$TAB"*) save_path "$ap_rest" || ap_savefail=1 ;;
      "savepair$TAB"*) save_pair "${ap_rest%%"$TAB"*}" "${ap_rest#*"$TAB"}" || ap_savefail=1 ;;
    esac
  done <"$P"
  [ "$SAVED" = 0 ] || journal_sync

  ap_rc=0
  [ "$ap_savefail" = 0 ] || ap_rc=1
  while IFS= read -r ap_line || [ -n "$ap_line" ]; do
    case $ap_line in
      "set$TAB"*) ;;
      *) continue ;;
    esac
    ap_rest=${ap_line#*"$TAB"}
    ap_path=${ap_rest%%"$TAB"*}
    if [ "$ap_savefail" = 1 ]; then
      # Never write what could not be undone.
      printf 'fail\t%s\tnot written: an original value could not be journaled\n' "$ap_path"
    elif ! put_value "$ap_path" "${ap_rest#*"$TAB"}"; then
      printf 'fail\t%s\t%s\n' "$ap_path" "$MSG"
      ap_rc=1
    fi
  done <"$P"

  while IFS= read -r ap_line || [ -n "$ap_line" ]; do
    ap_rest=${ap_line#*"$TAB"}
    case $ap_line in
      "set$TAB"*) ap_path=${ap_rest%%"$TAB"*} ;;
      "check$TAB"*) ap_path=$ap_rest ;;
      *) continue ;;
    esac
    get_value "$ap_path" || VALUE=
    printf 'eff\t%s\t%s\n' "$ap_path" "$VALUE"
  done <"$P"
  return "$ap_rc"
}

verb_restore() {
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
  re_rc=0
  : >"$T/keep"
  re_first=1
  while IFS= read -r re_line || [ -n "$re_line" ]; do
    if [ "$re_first" = 1 ]; then
      re_first=0
      continue
    fi
    [ -n "$re_line" ] || continue
    case $re_line in
      *"$TAB"*) ;;
      *)
        printf 'fail\t%s\tmalformed journal line\n' "$re_line"
        printf '%s\n' "$re_line" >>"$T/keep"
        re_rc=1
        continue
        ;;
    esac
    re_path=${re_line%%"$TAB"*}
    re_value=${re_line#*"$TAB"}
    if put_value "$re_path" "$re_value"; then
      printf 'restored\t%s\t%s\n' "$re_path" "$re_value"
    elif [ ! -e "$re_path" ]; then
      # The device or object is gone, and its setting with it.
      printf 'fail\t%s\tgone, dropped from the journal: %s\n' "$re_path" "$MSG"
      re_rc=1
    else
      printf 'fail\t%s\t%s\n' "$re_path" "$MSG"
      printf '%s\n' "$re_line" >>"$T/keep"
      re_rc=1
    fi
  done <"$JOURNAL"
  if [ -s "$T/keep" ]; then
    { printf '#boot\t%s\n' "$BOOT" && cat "$T/keep"; } >"$JOURNAL.new" &&
      mv -f "$JOURNAL.new" "$JOURNAL" && journal_sync
  else
    rm -f "$JOURNAL"
  fi
  return "$re_rc"
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

# Claims $J for this agent, unless a live agent's run holds it.
jobs_claim() {
  if ! mkdir "$J" 2>/dev/null; then
    first_line "$J/owner"
    if [ -n "$LINE" ] && [ "$LINE" != "$$" ] && kill -0 "$LINE" 2>/dev/null; then
      err "run: another run is in progress (agent pid $LINE)"
      return 3
    fi
    rm -rf "$J"
    mkdir "$J" || return 3
  fi
  printf '%s\n' "$$" >"$J/owner"
  : >"$J/pids"
}

# One job, forked by verb_run: load argv, wait at the barrier, time the workload.
run_job() {
  rj_dir=$1
  set --
  while IFS= read -r rj_word || [ -n "$rj_word" ]; do
    set -- "$@" "$rj_word"
  done <"$rj_dir/argv"
  : >"$rj_dir/ready"
  while [ ! -e "$J/go" ]; do
    sleep 0.002
  done
  if [ -e "$J/cancel" ]; then
    printf '130\n' >"$rj_dir/rc"
    return 0
  fi
  date +%s%N >"$rj_dir/start"
  # The env lines are exported in the workload's own process, so they cannot
  # clobber this function's variables; "$@" is never parsed by a shell.
  (
    while IFS= read -r rj_kv || [ -n "$rj_kv" ]; do
      export "${rj_kv?}"
    done <"$rj_dir/env"
    exec "$@"
  ) </dev/null >"$rj_dir/out" 2>"$rj_dir/err" &
  rj_pid=$!
  printf '%s\n' "$rj_pid" >"$rj_dir/pid"
  printf '%s\n' "$rj_pid" >>"$J/pids"
  wait "$rj_pid"
  rj_rc=$?
  date +%s%N >"$rj_dir/end"
  printf '%s\n' "$rj_rc" >"$rj_dir/rc"
}

# Kills the jobs still running after $1 seconds; they are reported with rc 124.
watchdog() {
  # Stopped by the parent when every job ended in time: leave without a word.
  trap 'exit 0' TERM
  sleep "$1" &
  printf '%s\n' "$!" >"$J/watchdog.sleep"
  wait "$!"
  [ -e "$J/done" ] && return 0
  : >"$J/cancel"
  wd_victims=
  wd_i=1
  while [ "$wd_i" -le "$2" ]; do
    if [ ! -e "$J/$wd_i/rc" ]; then
      : >"$J/$wd_i/timedout"
      first_line "$J/$wd_i/pid"
      [ -z "$LINE" ] || wd_victims="$wd_victims $(tree_pids "$LINE")"
    fi
    wd_i=$((wd_i + 1))
  done
  # shellcheck disable=SC2086 # a list of pids
  terminate $wd_victims
}

# Prints "KIND<TAB>NAME<TAB>LINE" for the last 200 lines of a job's output file.
job_tail() {
  [ -s "$3" ] || return 0
  tail -n 200 "$3" | while IFS= read -r jt_line || [ -n "$jt_line" ]; do
    printf '%s\t%s\t%s\n' "$1" "$2" "$jt_line"
  done
}

verb_run() {
  jobs_claim || return $?
  ru_n=0
  ru_timeout=
  ru_bad=0
  while IFS= read -r ru_line || [ -n "$ru_line" ]; do
    ru_value=${ru_line#*"$TAB"}
    case $ru_line in
      "") continue ;;
      "job$TAB"*)
        case $ru_value in
          "" | *[!A-Za-z0-9._:@+-]*)
            err "run: bad job name: $ru_value"
            ru_bad=1
            continue
            ;;
        esac
        ru_i=1
        while [ "$ru_i" -le "$ru_n" ]; do
          first_line "$J/$ru_i/name"
          if [ "$LINE" = "$ru_value" ]; then
            err "run: job $ru_value given twice"
            ru_bad=1
          fi
          ru_i=$((ru_i + 1))
        done
        ru_n=$((ru_n + 1))
        mkdir "$J/$ru_n" || return 1
        printf '%s\n' "$ru_value" >"$J/$ru_n/name"
        : >"$J/$ru_n/argv"
        : >"$J/$ru_n/env"
        ;;
      "arg$TAB"* | "env$TAB"*)
        if [ "$ru_n" = 0 ]; then
          err "run: '${ru_line%%"$TAB"*}' before the first job"
          ru_bad=1
          continue
        fi
        case $ru_line in
          "arg$TAB"*) printf '%s\n' "$ru_value" >>"$J/$ru_n/argv" ;;
          *)
            case ${ru_value%%=*} in
              "" | [0-9]* | *[!A-Za-z0-9_]*) ru_bad=1 ;;
            esac
            case $ru_value in
              *=*) ;;
              *) ru_bad=1 ;;
            esac
            if [ "$ru_bad" = 1 ]; then
              err "run: bad env line (want KEY=VALUE): $ru_value"
              continue
            fi
            printf '%s\n' "$ru_value" >>"$J/$ru_n/env"
            ;;
        esac
        ;;
      "timeout$TAB"*)
        case $ru_value in
          "" | . | *[!0-9.]* | *.*.*)
            err "run: bad timeout (want seconds): $ru_value"
            ru_bad=1
            ;;
          *) ru_timeout=$ru_value ;;
        esac
        ;;
      *)
        err "run: bad payload line: $ru_line"
        ru_bad=1
        ;;
    esac
  done <"$P"
  [ "$ru_n" -gt 0 ] || {
    err "run: no job given"
    ru_bad=1
  }
  ru_i=1
  while [ "$ru_i" -le "$ru_n" ]; do
    if [ ! -s "$J/$ru_i/argv" ]; then
      first_line "$J/$ru_i/name"
      err "run: job $LINE has no arg line"
      ru_bad=1
    fi
    ru_i=$((ru_i + 1))
  done
  if [ "$ru_bad" = 1 ]; then
    rm -rf "$J"
    return 2
  fi

  # Fork every job, let each load its argv, then release them all at once.
  ru_wrappers=
  # A single job has nobody to wait for: open the barrier now and save its polling forks.
  [ "$ru_n" -gt 1 ] || : >"$J/go"
  ru_i=1
  while [ "$ru_i" -le "$ru_n" ]; do
    # The shells print "Terminated" when a workload is killed: keep it off our stderr.
    run_job "$J/$ru_i" 2>"$J/$ru_i/agent.err" &
    ru_wrappers="$ru_wrappers $!"
    printf '%s\n' "$!" >"$J/$ru_i/wrapper"
    ru_i=$((ru_i + 1))
  done
  ru_i=1
  while [ "$ru_n" -gt 1 ] && [ "$ru_i" -le "$ru_n" ]; do
    first_line "$J/$ru_i/wrapper"
    while [ ! -e "$J/$ru_i/ready" ] && kill -0 "$LINE" 2>/dev/null; do
      sleep 0.002
    done
    ru_i=$((ru_i + 1))
  done
  : >"$J/go"
  ru_watchdog=
  if [ -n "$ru_timeout" ]; then
    watchdog "$ru_timeout" "$ru_n" &
    ru_watchdog=$!
  fi
  # shellcheck disable=SC2086 # a list of pids
  wait $ru_wrappers
  : >"$J/done"
  if [ -n "$ru_watchdog" ]; then
    first_line "$J/watchdog.sleep"
    # shellcheck disable=SC2086 # LINE is a pid or empty
    kill $LINE "$ru_watchdog" 2>/dev/null
  fi

  ru_rc=0
  ru_i=1
  while [ "$ru_i" -le "$ru_n" ]; do
    ru_dir=$J/$ru_i
    first_line "$ru_dir/name"
    ru_name=$LINE
    first_line "$ru_dir/rc"
    ru_jrc=${LINE:-255}
    [ ! -e "$ru_dir/timedout" ] || ru_jrc=124
    first_line "$ru_dir/start"
    ru_start=${LINE:-0}
    first_line "$ru_dir/end"
    ru_end=${LINE:-0}
    printf 'job\t%s\t%s\t%s\t%s\n' "$ru_name" "$ru_jrc" "$ru_start" "$ru_end"
    [ "$ru_jrc" = 0 ] || ru_rc=1
    ru_i=$((ru_i + 1))
  done
  ru_i=1
  while [ "$ru_i" -le "$ru_n" ]; do
    first_line "$J/$ru_i/name"
    job_tail out "$LINE" "$J/$ru_i/out"
    job_tail err "$LINE" "$J/$ru_i/err"
    ru_i=$((ru_i + 1))
  done
  rm -rf "$J"
  return "$ru_rc"
}

# From a second, one-shot agent: stop the workloads of the run in progress.
verb_cancel() {
  [ -d "$J" ] || return 0
  first_line "$J/owner"
  # A jobs dir left by a dead agent lists pids that may belong to anyone by now.
  [ -n "$LINE" ] && kill -0 "$LINE" 2>/dev/null || return 0
  : >"$J/cancel"
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
      kill -0 "$ca_pid" 2>/dev/null || continue
      ca_tree=$(tree_pids "$ca_pid")
      # shellcheck disable=SC2086 # a list of pids
      signal_all TERM $ca_tree
      ca_victims="$ca_victims $ca_tree"
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
# Modes

# mkdir is the atomic test-and-set; pid and boot id tell a live holder from a stale one.
lock_take() {
  lt_tries=0
  while ! mkdir "$LOCK" 2>/dev/null; do
    lt_tries=$((lt_tries + 1))
    if [ "$lt_tries" -gt 3 ]; then
      err "cannot take $LOCK"
      return 3
    fi
    first_line "$LOCK/pid"
    if [ -z "$LINE" ]; then
      # A starting agent writes its pid just after mkdir.
      sleep 0.2
      first_line "$LOCK/pid"
    fi
    lt_pid=$LINE
    first_line "$LOCK/boot"
    if [ -n "$lt_pid" ] && { [ -z "$LINE" ] || [ "$LINE" = "$BOOT" ]; } &&
      kill -0 "$lt_pid" 2>/dev/null; then
      # The agent of a controller that was just killed finishes its current request and
      # exits on end of input: give it a moment before refusing.
      lt_waited=${lt_waited:-0}
      if [ "$lt_waited" -lt "${TUNELAB_LOCK_WAIT:-15}0" ]; then
        lt_waited=$((lt_waited + 1))
        lt_tries=0
        sleep 0.1
        continue
      fi
      err "another agent (pid $lt_pid) is serving from $STATE; not starting"
      return 3
    fi
    err "taking over the stale lock $LOCK (pid ${lt_pid:-unknown})"
    rm -rf "$LOCK"
  done
  printf '%s\n' "$BOOT" >"$LOCK/boot"
  printf '%s\n' "$$" >"$LOCK/pid.new" && mv -f "$LOCK/pid.new" "$LOCK/pid"
  LOCKED=1
}

# shellcheck disable=SC2317 # reached through the EXIT trap
cleanup() {
  rm -rf "$T"
  if [ "${LOCKED:-0}" = 1 ]; then
    first_line "$LOCK/pid"
    [ "$LINE" != "$$" ] || rm -rf "$LOCK"
  fi
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

prepare_state() {
  if ! mkdir -p "$STATE" "$T"; then
    err "cannot create the state directory $STATE"
    exit 3
  fi
  trap cleanup EXIT
}

serve() {
  # The controller handles Ctrl-C itself and then sends cancel and restore.
  trap '' INT
  trap 'exit 129' HUP
  trap 'exit 141' PIPE
  trap 'exit 143' TERM
  prepare_state
  lock_take || exit $?
  clean_stale_scratch
  while IFS= read -r se_header || [ -n "$se_header" ]; do
    [ -n "$se_header" ] || continue
    se_verb=${se_header%% *}
    case $se_header in
      *" "*) se_n=${se_header#* } ;;
      *) se_n=0 ;;
    esac
    # An optional sequence number, echoed in the status line: the controller tells the
    # answer it awaits from a late one.
    se_seq=
    case $se_n in
      *" "*)
        se_seq=${se_n#* }
        se_n=${se_n%% *}
        case $se_seq in
          "" | *[!0-9]*) se_n=bad se_seq= ;;
        esac
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
    {
      while [ "$se_i" -lt "$se_n" ]; do
        if ! IFS= read -r se_line; then
          [ -n "$se_line" ] || exit 0
        fi
        printf '%s\n' "$se_line"
        se_i=$((se_i + 1))
      done
    } >"$P"
    # In this shell, not a subshell, and prefixed by a builtin loop: on a small VM
    # every fork costs milliseconds, and a phase of a trial should cost one round trip.
    dispatch "$se_verb" </dev/null >"$R"
    se_rc=$?
    while IFS= read -r se_out || [ -n "$se_out" ]; do
      printf '|%s\n' "$se_out"
    done <"$R"
    printf '$ %s%s\n' "$se_rc" "${se_seq:+ $se_seq}"
  done
  exit 0
}

one_shot() {
  prepare_state
  case $1 in
    read | apply | run) cat >"$P" ;;
    *) : >"$P" ;;
  esac
  dispatch "$1" </dev/null
  exit $?
}

if [ $# -ne 1 ]; then
  err "usage: sh tunelab-agent.sh VERB|serve (see docs/agent.md)"
  exit 2
fi
case $1 in
  serve) serve ;;
  *) one_shot "$1" ;;
esac

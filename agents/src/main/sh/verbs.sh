# shellcheck shell=sh
# ---------------------------------------------------------------------------
# Verbs. Each reads its payload from "$PAYLOAD_FILE" and prints its response on stdout.
# Here the verbs that are not a trial's; apply has its module, the trial verbs theirs.

verb_hello() {
  printf 'agent\t%s\n' "$AGENT_VERSION"
  printf 'pid\t%s\n' "$$"
  while IFS= read -r he_line || [ -n "$he_line" ]; do
    case $he_line in
      "experiment$TAB"*)
        EXPERIMENT=${he_line#*"$TAB"}
        if [ "${LOCKED:-0}" = 1 ] && ! printf '%s\n' "$EXPERIMENT" 2>/dev/null >"$LOCK/experiment"; then
          err "hello: cannot record the experiment in $LOCK/experiment"
        fi
        ;;
      "") ;;
      *) err "hello: ignoring payload line: $he_line" ;;
    esac
  done <"$PAYLOAD_FILE"
  [ ! -s "$SCRATCH/ended" ] || cat "$SCRATCH/ended"
}

verb_facts() {
  fa_release=$(uname -r)
  printf 'kernel_release\t%s\n' "$fa_release"
  printf 'boot_id\t%s\n' "$BOOT"
  first_line /proc/cmdline
  # A tab would end the fact early: the kernel takes none, a bootloader could pass one.
  printf 'cmdline\t%s\n' "$(printf '%s' "$FIRST_LINE" | tr '\t' ' ')"
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
  cpu_model /proc/cpuinfo
  [ -z "$CPU_MODEL" ] || fact_line cpu_model "$CPU_MODEL"
  first_line /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor
  [ -z "$FIRST_LINE" ] || fact_line cpufreq_governor "$FIRST_LINE"
  fa_config=/boot/config-$fa_release
  if [ -r "$fa_config" ]; then
    fa_sum=
    for fa_algo in sha256 md5; do
      if command -v "${fa_algo}sum" >/dev/null 2>&1; then
        fa_sum=$("${fa_algo}sum" <"$fa_config" 2>/dev/null) || fa_sum=
        break
      fi
    done
    [ -z "$fa_sum" ] || printf 'kernel_config\t%s:%s\n' "$fa_algo" "${fa_sum%% *}"
  fi
  for fa_dev in /sys/block/*; do
    [ -r "$fa_dev/queue/scheduler" ] || continue
    # One line, read by a builtin: a fork per device adds up on hosts with many disks.
    first_line "$fa_dev/queue/scheduler"
    printf 'block\t%s\t%s\n' "${fa_dev##*/}" "$FIRST_LINE"
    # A loop or ram device has no device/ of its own; a disk says what it is, and a stable
    # name where it has one (a SCSI or NVMe WWID, a virtio serial) for udev rules that
    # outlive its kernel name.
    for fa_what in model vendor; do
      first_line "$fa_dev/device/$fa_what"
      [ -z "$FIRST_LINE" ] || fact_line "$fa_what$TAB${fa_dev##*/}" "$FIRST_LINE"
    done
    for fa_what in wwid serial; do
      first_line "$fa_dev/device/$fa_what"
      [ -n "$FIRST_LINE" ] || first_line "$fa_dev/$fa_what"
      [ -z "$FIRST_LINE" ] || fact_line "$fa_what$TAB${fa_dev##*/}" "$FIRST_LINE"
    done
  done
}

# Prints "$1<TAB>$2" with $2's tabs made blanks and its own blanks trimmed: a fact is one
# field of one line (a tab in a disk's model would end it early).
fact_line() {
  fl_value=$2
  case $fl_value in
    *"$TAB"*) fl_value=$(printf '%s' "$fl_value" | tr '\t' ' ') ;;
  esac
  fl_value=${fl_value#"${fl_value%%[! ]*}"}
  fl_value=${fl_value%"${fl_value##*[! ]}"}
  [ -z "$fl_value" ] || printf '%s\t%s\n' "$1" "$fl_value"
}

# Sets CPU_MODEL from the first processor of $1 (/proc/cpuinfo), read by a builtin and no
# further than that processor: x86's "model name"; elsewhere the arch's own line (arm32
# "Processor", mips "cpu model", powerpc "cpu", riscv "uarch"), or arm64's implementer and
# part numbers. Empty when none is there.
cpu_model() {
  CPU_MODEL=
  [ -r "$1" ] || return 0
  cm_other=
  cm_implementer=
  cm_part=
  while IFS= read -r cm_line; do
    cm_key=${cm_line%%:*}
    cm_key=${cm_key%"${cm_key##*[!"$TAB "]}"}
    cm_value=${cm_line#*:}
    cm_value=${cm_value# }
    case $cm_key in
      "model name")
        CPU_MODEL=$cm_value
        return 0
        ;;
      Processor | "cpu model" | cpu | uarch) [ -n "$cm_other" ] || cm_other=$cm_value ;;
      "CPU implementer") cm_implementer=$cm_value ;;
      "CPU part") cm_part=$cm_value ;;
      "") [ -z "$cm_other$cm_implementer" ] || break ;;
    esac
  done <"$1"
  if [ -n "$cm_other" ]; then
    CPU_MODEL=$cm_other
  elif [ -n "$cm_implementer" ]; then
    CPU_MODEL="implementer $cm_implementer part $cm_part"
  fi
}

verb_read() {
  resolve_payload read || RESOLVED_MAP=$NL
  rd_rc=0
  rd_all=$PAYLOAD
  while [ -n "$rd_all" ]; do
    rd_path=${rd_all%%"$NL"*}
    rd_all=${rd_all#*"$NL"}
    [ -n "$rd_path" ] || continue
    if ! path_allowed "$rd_path"; then
      err "read: $rd_path: $FAIL_REASON"
      printf 'fail\t%s\t%s\n' "$rd_path" "$FAIL_REASON"
      rd_rc=1
      continue
    fi
    if [ ! -e "$RESOLVED_PATH" ]; then
      printf 'missing\t%s\t\n' "$rd_path"
      continue
    fi
    # Root passes access(2) for everything: only the mode bits tell a knob the
    # kernel will refuse (r--r--r--) from one it accepts; -w still catches ro mounts.
    rd_state=ro
    case $(stat -L -c %A "$RESOLVED_PATH" 2>/dev/null) in
      ?*w*) [ -w "$RESOLVED_PATH" ] && rd_state=rw ;;
    esac
    get_value "$RESOLVED_PATH" || VALUE=
    printf '%s\t%s\t%s\n' "$rd_state" "$rd_path" "$VALUE"
    # The file as symlinks lead to it: the controller tells two names for one file by it.
    [ "$RESOLVED_PATH" = "$rd_path" ] || printf 'resolved\t%s\t%s\n' "$rd_path" "$RESOLVED_PATH"
  done
  return "$rd_rc"
}

# Lists directories of knobs, one per payload line, confined as read's paths: an
# `entry<TAB>DIR<TAB>NAME` line per entry, `missing<TAB>DIR<TAB>` for no such directory.
# Preflight asks it for the directories of a sysctl that does not exist, to name the
# host's nearest one; a glob, so no process per directory.
verb_list() {
  resolve_payload read || RESOLVED_MAP=$NL
  ls_rc=0
  ls_all=$PAYLOAD
  while [ -n "$ls_all" ]; do
    ls_dir=${ls_all%%"$NL"*}
    ls_all=${ls_all#*"$NL"}
    [ -n "$ls_dir" ] || continue
    if ! path_allowed "$ls_dir"; then
      err "list: $ls_dir: $FAIL_REASON"
      printf 'fail\t%s\t%s\n' "$ls_dir" "$FAIL_REASON"
      ls_rc=1
      continue
    fi
    if [ ! -d "$RESOLVED_PATH" ]; then
      printf 'missing\t%s\t\n' "$ls_dir"
      continue
    fi
    for ls_entry in "$RESOLVED_PATH"/*; do
      [ -e "$ls_entry" ] || [ -h "$ls_entry" ] || continue
      printf 'entry\t%s\t%s\n' "$ls_dir" "${ls_entry##*/}"
    done
  done
  return "$ls_rc"
}

# Writes one journal line back ($1 path, $2 original); adds it to RESTORE_KEEP when it
# must stay for a later retry.
restore_line() {
  if ! path_allowed "$1"; then
    printf 'fail\t%s\t%s; dropped from the journal\n' "$1" "$FAIL_REASON"
    RESTORE_RC=1
    return 0
  fi
  if [ ! -e "$RESOLVED_PATH" ]; then
    case $1 in
      */queue/iosched/*)
        # An I/O scheduler's tunable is gone because its scheduler is no longer the
        # device's: restoring the scheduler (first) reset that scheduler's files.
        [ ! -e "${RESOLVED_PATH%/iosched/*}/scheduler" ] || return 0
        ;;
    esac
    printf 'gone\t%s\n' "$1"
    err "restore: $1 is gone (its device was removed?); dropped from the journal"
    return 0
  fi
  if put_value "$RESOLVED_PATH" "$2"; then
    printf 'restored\t%s\t%s\n' "$1" "$2"
  elif [ ! -e "$RESOLVED_PATH" ]; then
    printf 'gone\t%s\n' "$1"
  elif [ "$RESTORE_DISCARD" = 1 ]; then
    err "restore: $1: $FAIL_REASON; discarded (was $2)"
    printf 'discarded\t%s\t%s\n' "$1" "$2"
  else
    printf 'fail\t%s\t%s\n' "$1" "$FAIL_REASON"
    RESTORE_KEEP=$RESTORE_KEEP$1$TAB$2$NL
    RESTORE_RC=1
  fi
}

verb_restore() {
  JOURNAL_PATHS_OK=0
  RESTORE_DISCARD=0
  while IFS= read -r re_line || [ -n "$re_line" ]; do
    case $re_line in
      discard) RESTORE_DISCARD=1 ;;
      "") ;;
      *)
        err "restore: bad payload line: $re_line"
        return 2
        ;;
    esac
  done <"$PAYLOAD_FILE"
  [ -f "$JOURNAL" ] || return 0
  first_line "$JOURNAL"
  case $FIRST_LINE in
    "#boot$TAB"*) ;;
    *)
      err "restore: $JOURNAL does not start with a #boot line; left in place"
      return 1
      ;;
  esac
  if [ "${FIRST_LINE#*"$TAB"}" != "$BOOT" ]; then
    printf 'stale\t%s\n' "${FIRST_LINE#*"$TAB"}"
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
  RESTORE_RC=0
  RESTORE_KEEP=
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
          [ "$RESTORE_DISCARD" = 1 ] || RESTORE_KEEP=$RESTORE_KEEP$re_line$NL
          RESTORE_RC=1
          continue
          ;;
        *) continue ;;
      esac
      restore_line "$re_path" "${re_line#*"$TAB"}"
    done <"$JOURNAL"
  done
  # The journal is replaced only by one written whole: on a full disk it stays as it was,
  # and a later restore writes back again what this one did.
  if [ -n "$RESTORE_KEEP" ]; then
    if ! { printf '#boot\t%s\n%s' "$BOOT" "$RESTORE_KEEP" >"$JOURNAL.new" &&
      sync "$JOURNAL.new" && mv -f -- "$JOURNAL.new" "$JOURNAL"; } 2>/dev/null; then
      rm -f -- "$JOURNAL.new"
      err "restore: cannot write the lines to keep into $JOURNAL (is its file system full?); it is left whole"
      return 1
    fi
    sync "$STATE" 2>/dev/null || sync
  else
    rm -f "$JOURNAL"
  fi
  return "$RESTORE_RC"
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
    err "drop-caches: /proc/sys/vm/drop_caches: $FAIL_REASON"
    return 1
  fi
}

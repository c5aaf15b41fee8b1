# shellcheck shell=sh
# ---------------------------------------------------------------------------
# noise: what on a host makes a benchmark noisy, read once before a run (docs/agent.md,
# "noise"); the controller judges the figures and names the fixes.

# Daemons that rewrite what a matrix sets or move work around while it runs, by the name
# the kernel keeps for them (comm: at most 15 bytes).
NOISE_DAEMONS='irqbalance tuned bpftune ksmtuned thermald power-profiles-'

# The figures, one line each (absent where the host has no such file): cpus, governors
# (every CPU's, once each), no_turbo, boost, thp (the enabled line), ksm, loadavg (one
# minute), swap_kb, dirty_kb, writeback_kb (/proc/meminfo), then daemon<TAB>NAME<TAB>PID for
# each running daemon of NOISE_DAEMONS and md<TAB>NAME<TAB>ACTION for each md array that is
# not idle. Builtins but for getconf: every process's comm is read.
verb_noise() {
  no_cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || no_cpus=$(nproc 2>/dev/null)
  printf 'cpus\t%s\n' "$no_cpus"
  no_govs=' '
  no_any=
  for no_file in /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor; do
    first_line "$no_file"
    [ -n "$FIRST_LINE" ] || continue
    no_any=1
    case $no_govs in
      *" $FIRST_LINE "*) ;;
      *) no_govs="$no_govs$FIRST_LINE " ;;
    esac
  done
  if [ -n "$no_any" ]; then
    no_govs=${no_govs# }
    printf 'governors\t%s\n' "${no_govs% }"
  fi
  noise_file no_turbo /sys/devices/system/cpu/intel_pstate/no_turbo
  noise_file boost /sys/devices/system/cpu/cpufreq/boost
  noise_file thp /sys/kernel/mm/transparent_hugepage/enabled
  noise_file ksm /sys/kernel/mm/ksm/run
  first_line /proc/loadavg
  [ -z "$FIRST_LINE" ] || printf 'loadavg\t%s\n' "${FIRST_LINE%% *}"
  while read -r no_key no_value _; do
    case $no_key in
      SwapTotal:) printf 'swap_kb\t%s\n' "$no_value" ;;
      Dirty:) printf 'dirty_kb\t%s\n' "$no_value" ;;
      Writeback:) printf 'writeback_kb\t%s\n' "$no_value" ;;
    esac
  done </proc/meminfo
  for no_comm in /proc/[0-9]*/comm; do
    first_line "$no_comm"
    case " $NOISE_DAEMONS " in
      *" $FIRST_LINE "*)
        no_pid=${no_comm%/comm}
        printf 'daemon\t%s\t%s\n' "$FIRST_LINE" "${no_pid#/proc/}"
        ;;
    esac
  done
  for no_file in /sys/block/md*/md/sync_action; do
    first_line "$no_file"
    case $FIRST_LINE in
      "" | idle) ;;
      *)
        no_md=${no_file%/md/sync_action}
        printf 'md\t%s\t%s\n' "${no_md##*/}" "$FIRST_LINE"
        ;;
    esac
  done
}

# Prints "$1<TAB>the first line of $2" when $2 can be read.
noise_file() {
  first_line "$2"
  [ -z "$FIRST_LINE" ] || printf '%s\t%s\n' "$1" "$FIRST_LINE"
}

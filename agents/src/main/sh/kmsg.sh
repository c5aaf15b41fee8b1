# shellcheck shell=sh
# ---------------------------------------------------------------------------
# kmsg: a serve's copy of the kernel log, which health snapshots read the kernel's new lines
# from (health.sh): its file, its cap, whether its dd has copied every record logged so far.

# The kernel log of a serve: its reader (reader_main) starts one dd that copies every record
# of /dev/kmsg into KMSG_FILE as the kernel logs it, so that a snapshot reads a small file
# instead of forking a reader of its own. A before-snapshot empties the file (KMSG_MARK counts
# how often); an after-snapshot reads what the kernel logged since. Empty KMSG_FILE: no
# reader (one-shot calls), a dd per snapshot.
KMSG_FILE=
KMSG_PID=
KMSG_MARK=0
# The copy's cap, in blocks of `ulimit -f` (512 bytes in dash and a POSIX sh, so 8 MiB): a
# kernel that floods its log during a long trial (or an idle serve) would otherwise fill the
# scratch directory. At the cap the dd's write fails and it ends; the trial's after-snapshot
# reads the copy and then /dev/kmsg past its last record, and from then on each snapshot
# reads /dev/kmsg itself. A test may set a smaller cap (TUNELAB_KMSG_COPY_BLOCKS, with
# TUNELAB_STATE).
KMSG_COPY_BLOCKS=16384
if [ -n "${TUNELAB_STATE:-}" ]; then
  case ${TUNELAB_KMSG_COPY_BLOCKS:-} in
    "" | *[!0-9]*) ;;
    *) KMSG_COPY_BLOCKS=$TUNELAB_KMSG_COPY_BLOCKS ;;
  esac
fi

# The kernel wakes a sleeping reader of /dev/kmsg at its next timer tick after a record, not at
# once (a lazy irq_work): until the tick after a record was logged, the copy's dd may sleep
# without having copied it. KMSG_TICK_NS is a tick, from the kernel's configuration
# (CONFIG_HZ), read once per serve; 10 ms (HZ 100, the lowest) where it cannot be read.
# KMSG_TICK_GRID is 1 where the ticks fall on multiples of it on the monotonic clock, as the
# CPUs' last ticks in /proc/timer_list show (Linux aligns them so): the next tick is then
# known, not just bounded.
KMSG_TICK_NS=
KMSG_TICK_GRID=0
kmsg_tick() {
  KMSG_TICK_NS=10000000
  KMSG_TICK_GRID=0
  first_line /proc/sys/kernel/osrelease
  kt_hz=$(grep -m 1 '^CONFIG_HZ=' "/boot/config-$FIRST_LINE" 2>/dev/null) ||
    kt_hz=$(zcat /proc/config.gz 2>/dev/null | grep -m 1 '^CONFIG_HZ=')
  kt_hz=${kt_hz#CONFIG_HZ=}
  case $kt_hz in
    "" | *[!0-9]* | 0) return 0 ;;
  esac
  KMSG_TICK_NS=$((1000000000 / kt_hz))
  if awk -v tick="$KMSG_TICK_NS" '$1 == ".last_tick" { n++; if ($3 % tick) off = 1 }
      END { exit (n && !off) ? 0 : 1 }' /proc/timer_list 2>/dev/null; then
    KMSG_TICK_GRID=1
  fi
}

# Waits, reading the clock with builtins, until the tick after $1 (epoch nanoseconds: when the
# trial's last job ended) has passed, so that the kernel has woken the copy's dd for every
# record logged before it and kmsg_settle can tell whether the dd has copied them: the next
# multiple of the tick on a grid, else a whole tick later; a millisecond more either way, as
# the tick's own handler runs late on a busy host.
kmsg_wait_tick() {
  if [ -z "$KMSG_FILE" ] || [ -z "$KMSG_TICK_NS" ] || [ -z "${CLOCK_OFFSET:-}" ]; then
    return 0
  fi
  case $1 in
    "" | *[!0-9]* | 0) return 0 ;;
  esac
  kw_until=$(($1 - CLOCK_OFFSET + KMSG_TICK_NS))
  [ "$KMSG_TICK_GRID" = 0 ] || kw_until=$((kw_until - kw_until % KMSG_TICK_NS))
  kw_until=$((kw_until + 1000000))
  while mono_ns && [ "$MONO_NS" -lt "$kw_until" ]; do :; done
}

# Sets KMSG_READY to 1 when the serve's reader of /dev/kmsg runs and has copied every record
# logged so far: it sleeps in read(2) on /dev/kmsg once it has written them all, and a record
# wakes it by the next tick (a trial's after-snapshot waits for that tick first:
# kmsg_wait_tick). Sets KMSG_ENDED to 1 when it has ended (the cap): its parent, the reader,
# never waits for it, so it stays a zombie until the serve ends and its pid names no other
# process.
kmsg_settle() {
  KMSG_READY=0
  KMSG_ENDED=0
  [ -n "$KMSG_FILE" ] || return 0
  if [ -z "$KMSG_PID" ]; then
    first_line "$KMSG_FILE.pid"
    KMSG_PID=$FIRST_LINE
    [ -n "$KMSG_PID" ] || return 0
  fi
  ks_tries=0
  # Its status file's first lines, Name and State (Umask between them since Linux 4.7): a
  # read(2) per byte, so a few dozen, where its stat line costs some 300.
  while :; do
    ks_name=
    ks_state=
    {
      while IFS="$TAB " read -r ks_key ks_value _; do
        case $ks_key in
          Name:) ks_name=$ks_value ;;
          State:)
            ks_state=$ks_value
            break
            ;;
        esac
      done <"/proc/$KMSG_PID/status"
    } 2>/dev/null
    case $ks_state in
      "" | Z | X) break ;;
    esac
    # Not yet dd (the exec in reader_main).
    [ "$ks_name" = dd ] || return 0
    case $ks_state in
      S | D)
        KMSG_READY=1
        return 0
        ;;
    esac
    # Running: still copying. Looked at again (a builtin read, no fork), a bounded number of
    # times: a kernel that logs without pause leaves it running, and its records are there.
    ks_tries=$((ks_tries + 1))
    if [ "$ks_tries" -ge 200 ]; then
      KMSG_READY=1
      return 0
    fi
  done
  KMSG_ENDED=1
}

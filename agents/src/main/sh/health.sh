# shellcheck shell=sh
# ---------------------------------------------------------------------------
# health: what tells a trial whose numbers are suspect, read before and after it; the
# controller compares the two (docs/agent.md, "health"). A trial asks for them in its own
# request (a "health" payload line): the before-snapshot when the agent receives it, the
# after-snapshot and the read-back of its knobs ("check" lines) when it ends.

# How many new kernel lines an answer carries, and how long each may be.
HEALTH_LINES=5
HEALTH_LINE_CAP=240

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

# Sets KMSG_READY to 1 when the serve's reader of /dev/kmsg runs and has copied every record
# logged so far: it sleeps in read(2) on /dev/kmsg once it has written them all (a record
# wakes it at once, from the context that logged it). Sets KMSG_ENDED to 1 when it has ended
# (the cap): its parent, the reader, never waits for it, so it stays a zombie until the serve
# ends and its pid names no other process.
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

# Sets HEALTH_DEVS to " NAME NAME … ": the block devices nothing else is built on, whose bytes
# disk_read and disk_written count. A disk under LVM, RAID or dm-crypt (itself or through a
# partition) is counted through the device on top of it: its bytes are the same bytes once
# more. A partition's name starts with its disk's, so only those entries are looked into.
# A trial's after-snapshot counts the devices its before-snapshot did (trial_health): a
# device set up during the trial would add bytes the trial did not move.
health_devs() {
  HEALTH_DEVS=' '
  for hd_dev in /sys/block/*; do
    for hd_held in "$hd_dev"/holders/* "$hd_dev/${hd_dev##*/}"*/holders/*; do
      [ -e "$hd_held" ] && continue 2
    done
    HEALTH_DEVS="$HEALTH_DEVS${hd_dev##*/} "
  done
}

# Prints the figures, one line each, every line prefixed with $1 (empty, "before" or
# "after" and a TAB): boot_id, cursor (where the kernel log ends: "kfile:N" for a serve's
# reader, "kmsg:SEQ" or "dmesg:SECONDS"; absent when the log is unreadable), pswpin,
# pswpout, throttle (the sum of the thermal throttle counters; empty without any), cpufreq
# (each cpu's governor and limits, grouped; empty without cpufreq), disk_read and
# disk_written (bytes since boot of HEALTH_DEVS, which the caller sets first). With a
# cursor $2, also klines (how many lines of level warning or worse the kernel logged after
# it) and up to HEALTH_LINES of them as kline. Each further argument is a knob path read
# back, unprefixed: "knob<TAB>ok<TAB>PATH<TAB>VALUE" (lines joined by blanks), "knob<TAB>
# missing<TAB>PATH" or "knob<TAB>fail<TAB>PATH<TAB>REASON" (confinement). One awk reads it
# all; with a serve's reader, nothing else is forked.
health_take() {
  ht_prefix=$1
  ht_cursor=$2
  shift 2
  ht_checks=0
  if [ $# -gt 0 ]; then
    resolve_paths "$@" || RESOLVED_MAP=$NL
    ht_n=$#
    for ht_path in "$@"; do
      if path_allowed "$ht_path"; then
        set -- "$@" "$ht_path" "$RESOLVED_PATH"
        ht_checks=$((ht_checks + 1))
      else
        printf 'knob\tfail\t%s\t%s\n' "$ht_path" "$FAIL_REASON"
      fi
    done
    shift "$ht_n"
  fi
  health_source "$ht_cursor"
  health_read "$ht_prefix" "$ht_cursor" "$ht_checks" "$@"
}

# Sets HS_MODE to where the kernel's lines since cursor $1 ("" for none: a before-snapshot)
# come from: "copy" (the serve's copy, emptied now for a before-snapshot), "capped" (the copy
# reached its cap during the trial: it, then /dev/kmsg) or "pipe" (a dd of /dev/kmsg); and
# HS_MARK to the copy's mark, which a copy's cursor is.
health_source() {
  HS_MODE=pipe
  HS_MARK=
  case $1 in
    "" | kfile:*)
      kmsg_settle
      if [ "$KMSG_READY" = 1 ]; then
        HS_MODE=copy
        if [ -z "$1" ]; then
          # Emptied, not removed: the reader appends (O_APPEND), so it writes on at the start.
          : >"$KMSG_FILE"
          KMSG_MARK=$((KMSG_MARK + 1))
        fi
        HS_MARK=$KMSG_MARK
      elif [ "$KMSG_ENDED" = 1 ] && [ -n "$1" ]; then
        # The copy reached its cap during this trial: what it holds, then /dev/kmsg past it.
        HS_MODE=capped
        HS_MARK=$KMSG_MARK
      elif [ "$KMSG_ENDED" = 1 ]; then
        # It reached the cap between trials: nothing in it is wanted.
        : >"$KMSG_FILE"
        KMSG_FILE=
      fi
      ;;
  esac
}

# The snapshot of health_take from the source health_source chose: $1 prefix, $2 cursor, $3
# how many knob pairs end the arguments, the rest the knob pairs.
health_read() {
  hr_prefix=$1
  hr_cursor=$2
  hr_checks=$3
  shift 3
  case $HS_MODE:$hr_cursor in
    copy:) health_awk "$hr_prefix" "" copy "$HS_MARK" "$hr_checks" "$@" </dev/null ;;
    copy:*) health_awk "$hr_prefix" "$hr_cursor" copy "$HS_MARK" "$hr_checks" "$@" <"$KMSG_FILE" ;;
    capped:*)
      { cat "$KMSG_FILE" && dd if=/dev/kmsg iflag=nonblock bs=8192 2>/dev/null; } |
        health_awk "$hr_prefix" "$hr_cursor" copy "$HS_MARK" "$hr_checks" "$@"
      : >"$KMSG_FILE"
      KMSG_FILE=
      ;;
    *)
      dd if=/dev/kmsg iflag=nonblock bs=8192 2>/dev/null |
        health_awk "$hr_prefix" "$hr_cursor" pipe "" "$hr_checks" "$@"
      ;;
  esac
}

# The awk of health_take: $1 prefix, $2 cursor, $3 copy|pipe (what stdin holds: the serve's
# copy of the records since the last before-snapshot, or all of /dev/kmsg through a pipe), $4 the mark, $5 how many knob
# pairs (given path, resolved path) end the arguments; the rest, from $6, are paths to read.
health_awk() {
  ha_prefix=$1
  ha_cursor=$2
  ha_mode=$3
  ha_mark=$4
  ha_checks=$5
  shift 5
  awk -v p="$ha_prefix" -v cursor="$ha_cursor" -v mode="$ha_mode" -v mark="$ha_mark" \
    -v checks="$ha_checks" -v devs="$HEALTH_DEVS" -v keep="$HEALTH_LINES" -v cap="$HEALTH_LINE_CAP" \
    "$ESCAPE_AWK"'
      BEGIN {
        throttled = 0; counters = 0; disks = 0; read = 0; written = 0
        files = ARGC - 2 * checks
        for (i = 1; i < files; i++) {
          f = ARGV[i]
          if ((getline v < f) <= 0) continue
          if (f == "/proc/vmstat") {
            do {
              split(v, kv, " ")
              if (kv[1] == "pswpin" || kv[1] == "pswpout") swap[kv[1]] = kv[2]
            } while ((getline v < f) > 0)
          } else if (f == "/proc/diskstats") {
            disks = 1
            do {
              if (split(v, d, " ") >= 10 && index(devs, " " d[3] " ")) {
                read += d[6]; written += d[10]
              }
            } while ((getline v < f) > 0)
          } else if (f ~ /_throttle_count$/) {
            throttled += v; counters++
          } else {
            cpu = f; sub(/^.*\/cpu\//, "", cpu); sub(/\/.*$/, "", cpu)
            key = f; sub(/^.*\//, "", key)
            if (!(cpu in seen)) { seen[cpu] = 1; cpus[++ncpu] = cpu }
            freq[cpu, key] = v
          }
          close(f)
        }
        # The knobs read back: a file of several lines is one value, its lines joined by blanks.
        for (i = files; i < ARGC; i += 2) {
          f = ARGV[i + 1]
          if ((r = getline v < f) < 0) { print "knob\tmissing\t" ARGV[i]; continue }
          value = (r > 0) ? v : ""
          while ((getline v < f) > 0) value = value " " v
          close(f)
          print "knob\tok\t" ARGV[i] "\t" value
        }
        ARGC = 1
        want = 0
        seq = -1
        if (mode == "copy") { kind = "kfile"; last = mark; want = (cursor != "") ? 3 : 0 }
        else {
          kind = ""; last = ""
          if (cursor ~ /^kmsg:[0-9]+$/) { want = 1; from = substr(cursor, 6) + 0 }
          if (cursor ~ /^dmesg:[0-9.]+$/) { want = 2; from = substr(cursor, 7) + 0 }
        }
        n = 0
      }
      # A record "PRI,SEQ,USEC,FLAGS;TEXT"; lines after it that begin with a space are its
      # dictionary. Levels emerg to warning count (PRI & 7 <= 4): a mount or a new loop
      # device logs at info level. The copy of a serve holds only records since the cursor;
      # a copy cut at its cap is followed by all of /dev/kmsg, of which only the records
      # past the last record of the copy count.
      /^[0-9]+,[0-9]+,/ {
        split($0, head, ",")
        if (mode != "copy") { kind = "kmsg"; last = head[2] }
        else if (head[2] + 0 <= seq) next
        else seq = head[2] + 0
        if (((want == 1 && head[2] + 0 > from) || want == 3) && head[1] % 8 <= 4) {
          text = $0; sub(/^[^;]*;/, "", text)
          line(text)
        }
      }
      function line(text) {
        if (++n <= keep) print p "kline\t" esc(substr(text, 1, cap))
      }
      END {
        if (kind == "") {
          # No /dev/kmsg to read: dmesg, whose timestamps are the cursor, through syslog(2)
          # (-S): util-linux reading /dev/kmsg prints a wrong level prefix for user lines.
          while (("{ dmesg -S -r || dmesg -r; } 2>/dev/null" | getline v) > 0) {
            if (v !~ /^<[0-9]+>\[ *[0-9.]+\]/) continue
            pri = v; sub(/^</, "", pri); sub(/>.*$/, "", pri)
            ts = v; sub(/^<[0-9]+>\[ */, "", ts); sub(/\].*$/, "", ts)
            kind = "dmesg"; last = ts
            if (want == 2 && ts + 0 > from && pri % 8 <= 4) {
              text = v; sub(/^[^]]*\] ?/, "", text)
              line(text)
            }
          }
        }
        if (kind != "") print p "cursor\t" kind ":" last
        print p "pswpin\t" swap["pswpin"]
        print p "pswpout\t" swap["pswpout"]
        print p "throttle\t" (counters ? throttled : "")
        # Sectors of 512 bytes whatever the device; printf, since print would write a number
        # beyond 2^31 as %.6g in mawk.
        if (disks) printf "%sdisk_read\t%.0f\n%sdisk_written\t%.0f\n", p, read * 512, p, written * 512
        state = ""
        for (i = 1; i <= ncpu; i++) {
          c = cpus[i]
          s = freq[c, "scaling_governor"] " " freq[c, "scaling_min_freq"] "-" freq[c, "scaling_max_freq"]
          if (s in group) group[s] = group[s] "," c
          else { order[++ng] = s; group[s] = c }
        }
        for (i = 1; i <= ng; i++) state = state (i > 1 ? "; " : "") group[order[i]] " " order[i]
        print p "cpufreq\t" state
        if (want) print p "klines\t" n
      }' /proc/vmstat /proc/diskstats \
    /sys/devices/system/cpu/cpu[0-9]*/thermal_throttle/*_throttle_count \
    /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor \
    /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_min_freq \
    /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_max_freq "$@"
}

# The health verb: payload "cursor<TAB>CURSOR" (from an earlier snapshot) and any number of
# "check<TAB>PATH" (knobs to read back).
verb_health() {
  payload_load
  vh_cursor=
  set --
  vh_all=$PAYLOAD
  while [ -n "$vh_all" ]; do
    vh_line=${vh_all%%"$NL"*}
    vh_all=${vh_all#*"$NL"}
    case $vh_line in
      "cursor$TAB"*) vh_cursor=${vh_line#cursor"$TAB"} ;;
      "check$TAB"*) set -- "$@" "${vh_line#check"$TAB"}" ;;
    esac
  done
  printf 'boot_id\t%s\n' "$BOOT"
  # The after-snapshot of a host without a workload (its before-snapshot came with its
  # apply, whose mark the cursor names) counts the devices that one did, as a trial's does.
  if [ "$KMSG_MARK" = 0 ] || [ "$vh_cursor" != "kfile:$KMSG_MARK" ]; then
    health_devs
  fi
  health_take "" "$vh_cursor" "$@"
}

# A trial's snapshot ($1: before or after), its lines prefixed "$1<TAB>"; the after-snapshot
# also reads back the trial's check paths (TRIAL_CHECKS). The before-snapshot's cursor is
# kept for the after-snapshot in TRIAL_CURSOR.
trial_health() {
  printf '%s\tboot_id\t%s\n' "$1" "$BOOT"
  if [ "$1" = before ]; then
    health_devs
    health_source ""
    if [ "$HS_MODE" = copy ]; then
      # The cursor is the copy's mark: the awk's lines go straight into the answer.
      TRIAL_CURSOR=kfile:$HS_MARK
      health_read "before$TAB" "" 0
      return 0
    fi
    health_read "before$TAB" "" 0 >"$SCRATCH/health"
    TRIAL_CURSOR=
    while IFS= read -r th_line; do
      case $th_line in
        "before${TAB}cursor$TAB"*) TRIAL_CURSOR=${th_line#before"$TAB"cursor"$TAB"} ;;
      esac
      printf '%s\n' "$th_line"
    done <"$SCRATCH/health"
    return 0
  fi
  set -f
  th_ifs=$IFS
  IFS=$NL
  # shellcheck disable=SC2086 # one path per line
  set -- $TRIAL_CHECKS
  IFS=$th_ifs
  set +f
  health_take "after$TAB" "$TRIAL_CURSOR" "$@"
}

# shellcheck shell=sh
# ---------------------------------------------------------------------------
# health: what tells a trial whose numbers are suspect, read before and after it; the
# controller compares the two (docs/agent.md, "health"). A trial asks for them in its own
# request (a "health" payload line): the before-snapshot when the agent receives it, the
# after-snapshot and the read-back of its knobs ("check" lines) when it ends.

# How many new kernel lines an answer carries, and how long each may be.
HEALTH_LINES=5
HEALTH_LINE_CAP=240

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
    copy:*)
      snap_take "${hr_prefix%"$TAB"}" "$hr_cursor" "$HS_MARK" "$hr_checks" "$@" && return 0
      if [ -z "$hr_cursor" ]; then
        health_awk "$hr_prefix" "" copy "$HS_MARK" "$hr_checks" "$@" </dev/null
      else
        health_awk "$hr_prefix" "$hr_cursor" copy "$HS_MARK" "$hr_checks" "$@" <"$KMSG_FILE"
      fi
      ;;
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

# The snapshot's program: snap_begin reads the figures and the knobs (its files in F[1..nf],
# the last 2 * checks of them knob pairs: given path, resolved path), snap_record takes one
# kernel record, snap_end prints the rest. Lines go to OUT, or to stdout when it is empty.
# health_awk runs it once per snapshot; a serve's snapshot reader (snap_start) runs it for
# every snapshot of the serve.
HEALTH_AWK='
function emit(s) {
  if (OUT == "") print s
  else print s >> OUT
}
function snap_begin(prefix, cur, how, mk, checks, dv, nf,   files, i, f, v, kv, d, cpu, key, r, value) {
  p = prefix; cursor = cur; mode = how; mark = mk; devs = dv
  throttled = 0; counters = 0; disks = 0; rd = 0; wr = 0; ncpu = 0; ng = 0; n = 0
  split("", swap); split("", seen); split("", cpus); split("", freq); split("", group); split("", order)
  files = nf - 2 * checks
  for (i = 1; i <= files; i++) {
    f = F[i]
    # Closed whatever it held: an awk that takes many snapshots reads each file anew.
    if ((getline v < f) <= 0) { close(f); continue }
    if (f == "/proc/vmstat") {
      do {
        split(v, kv, " ")
        if (kv[1] == "pswpin" || kv[1] == "pswpout") swap[kv[1]] = kv[2]
      } while ((getline v < f) > 0)
    } else if (f == "/proc/diskstats") {
      disks = 1
      do {
        if (split(v, d, " ") >= 10 && index(devs, " " d[3] " ")) {
          rd += d[6]; wr += d[10]
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
  for (i = files + 1; i < nf; i += 2) {
    f = F[i + 1]
    if ((r = getline v < f) < 0) { emit("knob\tmissing\t" F[i]); continue }
    value = (r > 0) ? v : ""
    while ((getline v < f) > 0) value = value " " v
    close(f)
    emit("knob\tok\t" F[i] "\t" value)
  }
  want = 0
  seq = -1
  if (mode == "copy") { kind = "kfile"; last = mark; want = (cursor != "") ? 3 : 0 }
  else {
    kind = ""; last = ""
    if (cursor ~ /^kmsg:[0-9]+$/) { want = 1; from = substr(cursor, 6) + 0 }
    if (cursor ~ /^dmesg:[0-9.]+$/) { want = 2; from = substr(cursor, 7) + 0 }
  }
}
# A record "PRI,SEQ,USEC,FLAGS;TEXT" (lines after it that begin with a space are its
# dictionary, and no record). Levels emerg to warning count (PRI & 7 <= 4): a mount or a new
# loop device logs at info level. The copy of a serve holds only records since the cursor; a
# copy cut at its cap is followed by all of /dev/kmsg, of which only the records past the
# last record of the copy count.
function snap_record(s,   head, text) {
  split(s, head, ",")
  if (mode != "copy") { kind = "kmsg"; last = head[2] }
  else if (head[2] + 0 <= seq) return
  else seq = head[2] + 0
  if (((want == 1 && head[2] + 0 > from) || want == 3) && head[1] % 8 <= 4) {
    text = s; sub(/^[^;]*;/, "", text)
    kline(text)
  }
}
function kline(text) {
  if (++n <= keep) emit(p "kline\t" esc(substr(text, 1, cap)))
}
function snap_end(   dmesg, v, pri, ts, text, i, c, s, state) {
  if (kind == "") {
    # No /dev/kmsg to read: dmesg, whose timestamps are the cursor, through syslog(2)
    # (-S): util-linux reading /dev/kmsg prints a wrong level prefix for user lines.
    dmesg = "{ dmesg -S -r || dmesg -r; } 2>/dev/null"
    while ((dmesg | getline v) > 0) {
      if (v !~ /^<[0-9]+>\[ *[0-9.]+\]/) continue
      pri = v; sub(/^</, "", pri); sub(/>.*$/, "", pri)
      ts = v; sub(/^<[0-9]+>\[ */, "", ts); sub(/\].*$/, "", ts)
      kind = "dmesg"; last = ts
      if (want == 2 && ts + 0 > from && pri % 8 <= 4) {
        text = v; sub(/^[^]]*\] ?/, "", text)
        kline(text)
      }
    }
    close(dmesg)
  }
  if (kind != "") emit(p "cursor\t" kind ":" last)
  emit(p "pswpin\t" swap["pswpin"])
  emit(p "pswpout\t" swap["pswpout"])
  emit(p "throttle\t" (counters ? throttled : ""))
  # Sectors of 512 bytes whatever the device; sprintf, since print would write a number
  # beyond 2^31 as %.6g in mawk.
  if (disks) {
    emit(sprintf("%sdisk_read\t%.0f", p, rd * 512))
    emit(sprintf("%sdisk_written\t%.0f", p, wr * 512))
  }
  state = ""
  for (i = 1; i <= ncpu; i++) {
    c = cpus[i]
    s = freq[c, "scaling_governor"] " " freq[c, "scaling_min_freq"] "-" freq[c, "scaling_max_freq"]
    if (s in group) group[s] = group[s] "," c
    else { order[++ng] = s; group[s] = c }
  }
  for (i = 1; i <= ng; i++) state = state (i > 1 ? "; " : "") group[order[i]] " " order[i]
  emit(p "cpufreq\t" state)
  if (want) emit(p "klines\t" n)
}'

# The files every snapshot reads, before the knobs; a glob no file matches stays itself, and
# a file that cannot be read is left out.
HEALTH_FILES='/proc/vmstat /proc/diskstats
/sys/devices/system/cpu/cpu[0-9]*/thermal_throttle/*_throttle_count
/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor
/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_min_freq
/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_max_freq'

# One awk of HEALTH_AWK for one snapshot: $1 prefix, $2 cursor, $3 copy|pipe (what stdin
# holds: the serve's copy of the records since the last before-snapshot, or all of /dev/kmsg
# through a pipe), $4 the mark, $5 how many knob pairs (given path, resolved path) end the
# arguments; the rest, from $6, are the knob pairs.
health_awk() {
  ha_prefix=$1
  ha_cursor=$2
  ha_mode=$3
  ha_mark=$4
  ha_checks=$5
  shift 5
  # shellcheck disable=SC2086 # HEALTH_FILES: globs, one a word
  awk -v prefix="$ha_prefix" -v cur="$ha_cursor" -v how="$ha_mode" -v mk="$ha_mark" \
    -v checks="$ha_checks" -v devs="$HEALTH_DEVS" -v keep="$HEALTH_LINES" \
    -v cap="$HEALTH_LINE_CAP" "$ESCAPE_AWK$HEALTH_AWK"'
      BEGIN {
        OUT = ""
        for (i = 1; i < ARGC; i++) F[i] = ARGV[i]
        snap_begin(prefix, cur, how, mk, checks, devs, ARGC - 1)
        ARGC = 1
      }
      /^[0-9]+,[0-9]+,/ { snap_record($0) }
      END { snap_end() }' $HEALTH_FILES "$@"
}

# The serve's snapshot reader: one awk for the whole serve that takes every snapshot whose
# kernel lines come from the serve's copy (health_source's "copy"), so that a snapshot costs a
# line written to it and one read back, where a fork and exec of awk cost milliseconds. It
# reads a line per snapshot on "snap.in", where the serve holds the only writer (fd 8): when
# the serve ends, the end of file ends it. It appends the snapshot to the answer
# (RESPONSE_FILE, which a serve opens for appending) and then writes "." on "snap.out", its
# stderr, opened for reading and writing so that neither its start nor a write ever waits for
# a reader. It also relays each answer (snap_relay): its stdout is the serve's, and awk reads
# a file in blocks where the shell's read builtin takes a read(2) per byte.
# -W interactive: mawk otherwise waits to fill its buffer before it reads a line; gawk and
# busybox read lines as they come and only warn about the option.
SNAP_PID=
snap_start() {
  [ -n "$KMSG_FILE" ] || return 0
  mkfifo -m 0600 "$SCRATCH/snap.in" "$SCRATCH/snap.out" 2>/dev/null || return 0
  exec 8<>"$SCRATCH/snap.in"
  # A line: prefix word, cursor, mark, how many knob pairs, devices, then the files; or "|"
  # and the status line of an answer to relay.
  SNAP_OUT=$RESPONSE_FILE SNAP_KMSG=$KMSG_FILE awk -W interactive \
    -v keep="$HEALTH_LINES" -v cap="$HEALTH_LINE_CAP" "$ESCAPE_AWK$HEALTH_AWK"'
      BEGIN { OUT = ENVIRON["SNAP_OUT"]; kfile = ENVIRON["SNAP_KMSG"]; ack = "/dev/stderr" }
      /^[|]/ {
        # "+" first: from then on the answer may be partly written.
        printf "%s", "+\n" > ack
        fflush(ack)
        # One printf of a single string: mawk writes each print, and each piece of a printf
        # format, with a write(2) of its own on an unbuffered stdout, and every write to the
        # connection costs the host and the controller a wake-up and a packet.
        buf = ""
        k = 0
        while ((getline r < OUT) > 0) {
          buf = buf "|" r "\n"
          if (++k >= 64 || length(buf) >= 65536) {
            printf "%s", buf
            buf = ""
            k = 0
          }
        }
        close(OUT)
        printf "%s", buf substr($0, 2) "\n"
        fflush()
        printf "%s", ".\n" > ack
        fflush(ack)
        next
      }
      {
        nf = split($0, a, "\t") - 5
        for (i = 1; i <= nf; i++) F[i] = a[i + 5]
        snap_begin(a[1] == "" ? "" : a[1] "\t", a[2], "copy", a[3], a[4], a[5], nf)
        if (a[2] != "") {
          while ((getline r < kfile) > 0) if (r ~ /^[0-9]+,[0-9]+,/) snap_record(r)
          close(kfile)
        }
        snap_end()
        close(OUT)
        printf "%s", ".\n" > ack
        fflush(ack)
      }' <"$SCRATCH/snap.in" 2<>"$SCRATCH/snap.out" 3<&- 4<&- 5<&- 6<&- 7<&- 8<&- 9<&- &
  SNAP_PID=$!
}

# Sends the snapshot reader the line $1 and reads its first answer into SNAP_ACK: empty when
# it has gone. Opened for reading and writing first, so that the open for reading cannot
# wait; then the awk is its only writer, and an awk that has gone reads as end of file. The
# caller closes fd 9.
snap_ask() {
  exec 9<>"$SCRATCH/snap.out"
  exec 9<"$SCRATCH/snap.out"
  printf '%s\n' "$1" >&8
  snap_ack
}

# Reads the snapshot reader's next answer, "+" or ".", into SNAP_ACK (empty: it has gone).
# What else its stderr holds (an awk's warning about an option it does not know) is skipped.
snap_ack() {
  while IFS= read -r SNAP_ACK <&9; do
    case $SNAP_ACK in
      . | +) return 0 ;;
    esac
  done
  SNAP_ACK=
}

# The snapshot reader has gone: from now on each snapshot forks its own awk and the serve
# relays its answers itself.
snap_gone() {
  err "the snapshot reader (awk, pid $SNAP_PID) has gone: each snapshot forks its own awk"
  SNAP_PID=
  exec 8>&-
}

# A snapshot by the serve's snapshot reader, into the answer: $1 prefix word (empty, before or
# after), $2 cursor, $3 the copy's mark, $4 how many knob pairs end the arguments, the rest
# the knob pairs. Status 1 when it cannot take it (none, a trial holds fd 9, a path with a TAB
# or newline) or has gone (from then on every snapshot forks its awk): nothing was written.
snap_take() {
  [ -n "$SNAP_PID" ] || return 1
  # A started trial holds "done" on fd 9 until its jobs have ended (trial_jobs).
  if [ -n "${TRIAL_PGID:-}" ] && [ "${TRIAL_WAITED:-1}" = 0 ]; then
    return 1
  fi
  st_line=$1$TAB$2$TAB$3$TAB$4$TAB$HEALTH_DEVS
  shift 4
  # shellcheck disable=SC2086 # HEALTH_FILES: globs, one a word
  for st_path in $HEALTH_FILES "$@"; do
    case $st_path in
      *"$TAB"* | *"$NL"*) return 1 ;;
    esac
    st_line=$st_line$TAB$st_path
  done
  snap_ask "$st_line"
  exec 9<&-
  [ "$SNAP_ACK" != . ] || return 0
  snap_gone
  return 1
}

# Relays the answer, each line of RESPONSE_FILE prefixed "|", and its status line $1 through
# the snapshot reader, in one write when it is short. Status 1 when there is no reader (or a
# started trial holds fd 9): nothing was written. A reader that ends while it writes (killed,
# or by SIGPIPE when the controller has gone) leaves the answer cut short: the serve closes
# its stdout, so that the controller finds the host's connection gone rather than waiting
# for the rest, and serves on until its input ends, as the dead-man switch needs.
snap_relay() {
  [ -n "$SNAP_PID" ] || return 1
  if [ -n "${TRIAL_PGID:-}" ] && [ "${TRIAL_WAITED:-1}" = 0 ]; then
    return 1
  fi
  snap_ask "|$1"
  if [ "$SNAP_ACK" != + ]; then
    exec 9<&-
    snap_gone
    return 1
  fi
  snap_ack
  exec 9<&-
  [ "$SNAP_ACK" != . ] || return 0
  err "the snapshot reader (awk, pid $SNAP_PID) ended while it wrote an answer: that answer is cut short, and this serve answers no more"
  snap_gone
  exec 1>&-
  return 0
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
  kmsg_wait_tick "$TRIAL_END_NS"
  set -f
  th_ifs=$IFS
  IFS=$NL
  # shellcheck disable=SC2086 # one path per line
  set -- $TRIAL_CHECKS
  IFS=$th_ifs
  set +f
  health_take "after$TAB" "$TRIAL_CURSOR" "$@"
}

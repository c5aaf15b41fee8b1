# shellcheck shell=sh
# ---------------------------------------------------------------------------
# health: what tells a trial whose numbers are suspect, read before and after it; the
# controller compares the two (docs/agent.md, "health").

# How many new kernel lines an answer carries, and how long each may be.
HEALTH_LINES=5
HEALTH_LINE_CAP=240

# The figures, one line each: boot_id, cursor (where the kernel log ends, "kmsg:SEQ" or
# "dmesg:SECONDS"; absent when the log is unreadable), pswpin, pswpout, throttle (the sum of
# the thermal throttle counters; empty without any), cpufreq (each cpu's governor and
# limits, grouped; empty without cpufreq), disk_read and disk_written (bytes since boot of the
# block devices nothing else is built on). With a "cursor<TAB>C" payload, also klines (how
# many lines of level warning or worse the kernel logged after C) and up to HEALTH_LINES of
# them as kline. dd, which can read /dev/kmsg without blocking at its end, and one awk:
# this runs twice per trial on every host.
verb_health() {
  payload_load
  he_cursor=
  case $PAYLOAD in
    "cursor$TAB"*)
      he_cursor=${PAYLOAD#cursor"$TAB"}
      he_cursor=${he_cursor%%"$NL"*}
      ;;
  esac
  printf 'boot_id\t%s\n' "$BOOT"
  # A disk under LVM, RAID or dm-crypt (itself or through a partition) is counted through the
  # device on top of it: its bytes are the same bytes once more.
  he_devs=' '
  for he_dev in /sys/block/*; do
    for he_held in "$he_dev"/holders/* "$he_dev"/*/holders/*; do
      [ -e "$he_held" ] && continue 2
    done
    he_devs="$he_devs${he_dev##*/} "
  done
  dd if=/dev/kmsg iflag=nonblock bs=8192 2>/dev/null |
    awk -v cursor="$he_cursor" -v devs="$he_devs" -v keep="$HEALTH_LINES" -v cap="$HEALTH_LINE_CAP" "$ESCAPE_AWK"'
      BEGIN {
        throttled = 0; counters = 0; disks = 0; read = 0; written = 0
        for (i = 1; i < ARGC; i++) {
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
        ARGC = 1
        want = 0
        if (cursor ~ /^kmsg:[0-9]+$/) { want = 1; from = substr(cursor, 6) + 0 }
        if (cursor ~ /^dmesg:[0-9.]+$/) { want = 2; from = substr(cursor, 7) + 0 }
        last = ""; kind = ""; n = 0
      }
      # A record "PRI,SEQ,USEC,FLAGS;TEXT"; lines after it that begin with a space are its
      # dictionary. Levels emerg to warning count (PRI & 7 <= 4): a mount or a new loop
      # device logs at info level.
      /^[0-9]+,[0-9]+,/ {
        split($0, head, ",")
        kind = "kmsg"; last = head[2]
        if (want == 1 && head[2] + 0 > from && head[1] % 8 <= 4) {
          text = $0; sub(/^[^;]*;/, "", text)
          line(text)
        }
      }
      function line(text) {
        if (++n <= keep) print "kline\t" esc(substr(text, 1, cap))
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
        if (kind != "") print "cursor\t" kind ":" last
        print "pswpin\t" swap["pswpin"]
        print "pswpout\t" swap["pswpout"]
        print "throttle\t" (counters ? throttled : "")
        # Sectors of 512 bytes whatever the device; printf, since print would write a number
        # beyond 2^31 as %.6g in mawk.
        if (disks) printf "disk_read\t%.0f\ndisk_written\t%.0f\n", read * 512, written * 512
        state = ""
        for (i = 1; i <= ncpu; i++) {
          c = cpus[i]
          s = freq[c, "scaling_governor"] " " freq[c, "scaling_min_freq"] "-" freq[c, "scaling_max_freq"]
          if (s in group) group[s] = group[s] "," c
          else { order[++ng] = s; group[s] = c }
        }
        for (i = 1; i <= ng; i++) state = state (i > 1 ? "; " : "") group[order[i]] " " order[i]
        print "cpufreq\t" state
        if (want) print "klines\t" n
      }' /proc/vmstat /proc/diskstats \
    /sys/devices/system/cpu/cpu[0-9]*/thermal_throttle/*_throttle_count \
    /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor \
    /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_min_freq \
    /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_max_freq
}

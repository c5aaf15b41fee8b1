#!/bin/sh
# bench/ssh-overhead.sh [TRIALS] — orchestration overhead per trial on the two-host lab.
#
# Every trial changes the same 10 knobs (5 block-queue attributes of each lab host's loop
# disk) and then runs the workload `true` on the server. Measured two ways:
#   (a) tunelab: `./tunelab run` of a generated matrix, one cell per trial; the overhead is
#       read from its database (trial wall time minus the workload's time on the host);
#   (b) the best shell loop: OpenSSH with connection sharing (ControlMaster), one
#       `ssh HOST 'echo VALUE > PATH'` per knob and host, then `ssh server true`, timed
#       with date +%s%N;
# and, as the floor of tunelab's own work, (c) one cell without knobs run TRIALS times
# (workload `true` on the server). (a2) is (a) over 10 knobs whose writes do not freeze the
# disk's queue (on 6.x kernels a write to nr_requests or max_sectors_kb waits for the queue
# to drain and an RCU grace period, 10-50 ms here): read_ahead_kb, nomerges, rq_affinity
# and the bdi's min_ratio and max_ratio, so that what is left is tunelab's own cost. Runs (a) and (c) with TUNELAB_TRACE (docs/performance.md)
# and prints their median time per phase and host beside the figures.
# Then (d): the CPU time (utime + stime from /proc/PID/stat) of the agent processes while the
# server runs `sleep 10`: what the agents cost while a workload runs.
# Beside (a), (a2) and (c), in the same run, their floor: the same knob writes by a bare dash
# loop over one open SSH channel per host, the five programs a trial forks, the same health
# reads (one awk before and after), one fsync'd SQLite commit; each case prints "floor-ratio CASE = R" (tunelab per trial / floor per trial,
# medians) with the floor's phases.
# Prints the figures and their ratio. Needs root, `lab/lab up`, sqlite3, and a tunelab
# that can reach SSH hosts. It only talks to the lab's 127.0.0.x addresses and only writes
# the lab's loop disks; every value it writes is restored (tunelab restores its own).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd -P)
TRIALS=${1:-20}
KNOBS="read_ahead_kb nr_requests max_sectors_kb nomerges rq_affinity"
# (a2): KIND:ATTR, block = /sys/block/DISK/queue, bdi = /sys/class/bdi/MAJOR:MINOR.
CALM="block:read_ahead_kb block:nomerges block:rq_affinity bdi:min_ratio bdi:max_ratio"

die() {
  printf 'ssh-overhead: %s\n' "$*" >&2
  exit 1
}

# Two values per knob; odd trials write the first, even trials the second, so every
# trial changes all 10 knobs.
value() {
  case $1.$2 in
    read_ahead_kb.1) echo 128 ;; read_ahead_kb.0) echo 256 ;;
    nr_requests.1) echo 32 ;; nr_requests.0) echo 64 ;;
    max_sectors_kb.1) echo 64 ;; max_sectors_kb.0) echo 128 ;;
    nomerges.1) echo 1 ;; nomerges.0) echo 0 ;;
    rq_affinity.1) echo 2 ;; rq_affinity.0) echo 1 ;;
    min_ratio.1) echo 1 ;; min_ratio.0) echo 0 ;;
    max_ratio.1) echo 90 ;; max_ratio.0) echo 100 ;;
  esac
}

# --- the lab, and the safety checks --------------------------------------------------------
[ "$(id -u)" -eq 0 ] || die "needs root (the lab logs in as root and writes /sys)"
case $TRIALS in '' | *[!0-9]*) die "TRIALS must be a number, not '$TRIALS'" ;; esac
[ "$TRIALS" -ge 3 ] || die "TRIALS must be at least 3"
[ -f "$root/lab/state/env" ] || die "the lab is down: run lab/lab up first"
command -v sqlite3 >/dev/null 2>&1 || die "needs sqlite3 (lab/deps installs it)"
# shellcheck source=/dev/null
. "$root/lab/state/env"
# The lab belongs to the checkout that started it (LAB_DIR), which may be another worktree.
"$LAB_DIR/lab" status >/dev/null || die "the lab is not healthy: see $LAB_DIR/lab status"

for a in "$SERVER_ADDRESS" "$CLIENT_ADDRESS"; do
  case $a in 127.*) ;; *) die "refusing address $a: only lab (127.0.0.0/8) addresses" ;; esac
done
for h in server client; do
  case $h in server) disk=$SERVER_DISK ;; *) disk=$CLIENT_DISK ;; esac
  case $disk in loop[0-9] | loop[0-9]*[0-9]) ;; *) die "refusing disk '$disk': not a loop device" ;; esac
  back=$(losetup -l -n -O BACK-FILE "/dev/$disk" 2>/dev/null | sed 's/ *$//')
  [ "$back" = "$LAB_DIR/state/$h/disk.img" ] || die "/dev/$disk is not the lab's $h disk"
done

tmp=$(mktemp -d /tmp/tl-ovh.XXXXXX)
CONTROL=$tmp/cm-%h

# ssh to a lab address with the lab's key, sharing one connection per host.
lab_ssh() {
  a=$1
  shift
  ssh -F /dev/null -o BatchMode=yes -o IdentitiesOnly=yes -i "$LAB_KEY" \
    -o UserKnownHostsFile="$LAB_KNOWN_HOSTS" -o GlobalKnownHostsFile=/dev/null \
    -o StrictHostKeyChecking=yes -p "$LAB_PORT" \
    -o ControlMaster=auto -o ControlPath="$CONTROL" -o ControlPersist=60 \
    "root@$a" "$@"
}

# Prints "ADDRESS DISK" for both hosts.
hosts() {
  echo "$SERVER_ADDRESS $SERVER_DISK"
  echo "$CLIENT_ADDRESS $CLIENT_DISK"
}

# Prints "ADDRESS PATH VALUE" for every benchmarked knob, as the hosts have it now.
snapshot() {
  hosts | while read -r a disk; do
    for k in $KNOBS; do
      printf '%s /sys/block/%s/queue/%s %s\n' "$a" "$disk" "$k" "$(lab_ssh "$a" cat "/sys/block/$disk/queue/$k" </dev/null)"
    done
    for k in min_ratio max_ratio; do
      p=/sys/class/bdi/$(cat "/sys/block/$disk/dev")/$k
      printf '%s %s %s\n' "$a" "$p" "$(lab_ssh "$a" cat "$p" </dev/null)"
    done
  done
}

restore() {
  [ -f "$tmp/originals" ] || return 0
  while read -r a path v; do
    lab_ssh "$a" "echo $v > $path" </dev/null || true
  done <"$tmp/originals"
}

cleanup() {
  restore
  for a in "$SERVER_ADDRESS" "$CLIENT_ADDRESS"; do
    ssh -F /dev/null -o ControlPath="$CONTROL" -O exit "root@$a" 2>/dev/null || true
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Prints "median mean" in milliseconds of the numbers (microseconds) on stdin.
summary() {
  sort -n | awk '{ v[NR] = $1; s += $1 }
    END {
      if (NR == 0) { print "- -"; exit }
      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%.1f %.1f\n", m / 1000, s / NR / 1000
    }'
}

# Prints, per trial but the first, microseconds from its start to the next trial's start
# minus its workload's time on the host.
period_us() {
  sqlite3 "$1" "
  select cast(((julianday(n.started_at) - julianday(t.started_at)) * 86400 - coalesce(t.workload_seconds, 0)) * 1e6 as integer)
  from trials t join trials n on n.experiment_id = t.experiment_id and n.seq = t.seq + 1
  where t.status = 'ok' and t.seq > 1 order by t.seq"
}

# Prints the median per trial (the first left out) of each phase and host of a trace
# (TRIAL PHASE HOST MICROSECONDS lines; trial 0 is start-up and restore), in milliseconds,
# in the order phases first appear.
phases() {
  awk -F '\t' '
    $1 == 0 { next }
    first == "" { first = $1 }
    $1 == first { next }
    { k = $2 "\t" $3; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
      if (!(($1, k) in sum)) { trials[k] = trials[k] " " $1 }
      sum[$1, k] += $4 }
    END {
      for (i = 1; i <= n; i++) {
        k = order[i]; m = split(substr(trials[k], 2), ts, " ")
        for (j = 1; j <= m; j++) v[j] = sum[ts[j], k]
        for (a = 2; a <= m; a++) { x = v[a]; for (b = a - 1; b >= 1 && v[b] > x; b--) v[b + 1] = v[b]; v[b + 1] = x }
        med = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
        split(k, kh, "\t")
        printf "  %-14s %-8s %8.2f\n", kh[1], (kh[2] == "-" ? "(ctl)" : kh[2]), med / 1000
      }
    }' "$1"
}

# --- the floor of each case -----------------------------------------------------------------
# What a trial costs before tunelab does anything of its own, measured in the same run: over
# one open SSH channel per host (a bare dash loop that evals a line and answers "."), the same
# knob writes as the case (builtin echos, both hosts at once), then on the server the same
# five programs a trial forks (setsid, sh, date, timeout and the workload `sh -c true`, date),
# then one fsync'd SQLite commit (WAL, synchronous=FULL, as tunelab's store) by a sqlite3
# that stays open. Driven by bash, whose $EPOCHREALTIME times each trial without a fork.
# And the same reads as tunelab's health checks, the cheapest way a shell loop does them: one
# awk over the same files (/proc/vmstat, /proc/diskstats, the thermal throttle counters and
# cpufreq files) before and after the workload in the same round trip; the one after also
# reads the kernel's lines since the one before, from a copy of /dev/kmsg that a dd started
# with the channel keeps (emptied by the one before), and reads the host's knobs back. A host
# that only has knobs (the client) takes its before-snapshot with its knob writes and its
# after-snapshot, with its knobs read back, in one round trip once the server has answered.
# floor CASE KNOBS (KIND:ATTR, as knob_matrix takes; empty: none) writes $tmp/floor-CASE.us:
# per trial but the first, "TOTAL KNOBS RUN CHECK COMMIT" in microseconds, the workload's host
# time (between the two dates) taken out of TOTAL and RUN as tunelab's figures take it out.
knob_path() {
  case $2 in
    block:*) echo "/sys/block/$1/queue/${2#*:}" ;;
    bdi:*) echo "/sys/class/bdi/$(cat "/sys/block/$1/dev")/${2#*:}" ;;
  esac
}
knob_line() {
  a_disk=$1
  shift
  line=
  for k in $2; do
    line="${line}echo $(value "${k#*:}" "$1") >$(knob_path "$a_disk" "$k"); "
  done
  printf '%s:\n' "$line"
}
# The knobs of a host's disk, as the words of one line.
knob_paths() {
  for k in $2; do printf '%s ' "$(knob_path "$1" "$k")"; done
}
# Defined once on each channel, outside the measurement: the dd that copies the kernel log into
# $K, and snap, one awk that reads every line of every file it is given.
# shellcheck disable=SC2016 # evaluated by the channel's dash
FLOOR_SETUP='K=$(mktemp /tmp/tl-floor-kmsg.XXXXXX); dd if=/dev/kmsg of="$K" bs=65536 conv=noerror,notrunc oflag=append status=none </dev/null >/dev/null 2>/dev/null & KD=$!; F="/proc/vmstat /proc/diskstats /sys/devices/system/cpu/cpu[0-9]*/thermal_throttle/*_throttle_count /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_min_freq /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_max_freq"; snap() { awk '"'"'BEGIN { for (i = 1; i < ARGC; i++) { f = ARGV[i]; while ((getline v < f) > 0) n += split(v, w, " "); close(f) } print n }'"'"' "$@" >/dev/null; }'
# shellcheck disable=SC2016
FLOOR_TEARDOWN='kill $KD; rm -f "$K"'
floor() {
  f=$tmp/floor-$1
  mkdir "$f"
  mkfifo "$f/server.in" "$f/server.out" "$f/client.in" "$f/client.out" "$f/db.in" "$f/db.out"
  loop="exec dash -c 'while IFS= read -r l; do eval \"\$l\"; echo .; done'"
  lab_ssh "$SERVER_ADDRESS" "$loop" <"$f/server.in" >"$f/server.out" &
  s_pid=$!
  lab_ssh "$CLIENT_ADDRESS" "$loop" <"$f/client.in" >"$f/client.out" &
  c_pid=$!
  sqlite3 -batch "$f/floor.db" <"$f/db.in" >"$f/db.out" &
  d_pid=$!
  FLOOR_S1=$(knob_line "$SERVER_DISK" 1 "$2") FLOOR_S0=$(knob_line "$SERVER_DISK" 0 "$2") \
    FLOOR_C1=$(knob_line "$CLIENT_DISK" 1 "$2") FLOOR_C0=$(knob_line "$CLIENT_DISK" 0 "$2") \
    FLOOR_SR=$(knob_paths "$SERVER_DISK" "$2") FLOOR_CR=$(knob_paths "$CLIENT_DISK" "$2") \
    FLOOR_SETUP=$FLOOR_SETUP FLOOR_TEARDOWN=$FLOOR_TEARDOWN \
    FLOOR_KNOBS=${2:+1} bash -c '
    set -eu
    f=$1
    exec 3>"$f/server.in" 4<"$f/server.out" 5>"$f/client.in" 6<"$f/client.out" 7>"$f/db.in" 8<"$f/db.out"
    printf "pragma journal_mode=wal;\npragma synchronous=full;\ncreate table t(seq integer primary key, started_us integer, workload_ns integer);\nselect 1;\n" >&7
    read -r _ <&8
    read -r _ <&8
    printf "%s\n" "$FLOOR_SETUP" >&3
    printf "%s\n" "$FLOOR_SETUP" >&5
    read -r _ <&4
    read -r _ <&6
    run="snap \$F; setsid dash -c '\''date +%s%N; timeout --foreground -k 2 60 sh -c true; date +%s%N'\'' </dev/null; snap \$F \"\$K\" $FLOOR_SR"
    us() { local t=${EPOCHREALTIME/./}; REPLY=${t#0}; }
    i=1
    while [ "$i" -le "$2" ]; do
      us; t0=$REPLY
      if [ -n "${FLOOR_KNOBS:-}" ]; then
        if [ $((i % 2)) = 1 ]; then s=$FLOOR_S1 c=$FLOOR_C1; else s=$FLOOR_S0 c=$FLOOR_C0; fi
        printf "%s\n" "$s" >&3
        printf "%s\n" "$c; : >\"\$K\"; snap \$F" >&5
        read -r _ <&4
        read -r _ <&6
      fi
      us; t1=$REPLY
      printf "%s\n" ": >\"\$K\"; $run" >&3
      read -r ws <&4
      read -r we <&4
      read -r _ <&4
      us; t2=$REPLY
      if [ -n "${FLOOR_KNOBS:-}" ]; then
        printf "%s\n" "snap \$F \"\$K\" $FLOOR_CR" >&5
        read -r _ <&6
      fi
      us; t3=$REPLY
      printf "insert into t values (%d, %s, %d);\nselect 1;\n" "$i" "$t0" $((we - ws)) >&7
      read -r _ <&8
      us; t4=$REPLY
      w=$(((we - ws) / 1000))
      [ "$i" = 1 ] || echo "$((t4 - t0 - w)) $((t1 - t0)) $((t2 - t1 - w)) $((t3 - t2)) $((t4 - t3))"
      i=$((i + 1))
    done
    printf "%s\n" "$FLOOR_TEARDOWN" >&3
    printf "%s\n" "$FLOOR_TEARDOWN" >&5
    read -r _ <&4
    read -r _ <&6
  ' floor "$f" "$TRIALS" >"$tmp/floor-$1.us" || die "the floor of $1 failed"
  wait "$s_pid" "$c_pid" "$d_pid" || die "the floor of $1: a channel failed"
  rm -rf "$f"
  restore
}

snapshot >"$tmp/originals"
load_start=$(cut -d ' ' -f 1-3 /proc/loadavg)

# --- (a) tunelab -----------------------------------------------------------------------------
# Prints a matrix named $1 of TRIALS cells that change the knobs $2 (KIND:ATTR) of both hosts.
knob_matrix() {
  echo "name: $1"
  echo "description: generated by bench/ssh-overhead.sh; $TRIALS cells, 10 knobs change in every cell"
  echo "hosts: $LAB_INVENTORY"
  echo "roles:"
  echo "  server: server"
  echo "  client: client"
  echo "matrix:"
  echo "  trial:"
  i=1
  while [ "$i" -le "$TRIALS" ]; do
    printf '    t%03d:\n' "$i"
    for role in server client; do
      case $role in server) disk=$SERVER_DISK ;; *) disk=$CLIENT_DISK ;; esac
      for k in $2; do
        case $k in
          block:*) echo "      $role.block.$disk.${k#*:}: $(value "${k#*:}" $((i % 2)))" ;;
          bdi:*) echo "      $role.bdi.$(cat "/sys/block/$disk/dev").${k#*:}: $(value "${k#*:}" $((i % 2)))" ;;
        esac
      done
    done
    i=$((i + 1))
  done
  echo "order: sequential"
  echo "workload:"
  echo "  on: server"
  echo '  command: "true"'
}
knobs=
for k in $KNOBS; do knobs="$knobs block:$k"; done
knob_matrix ssh-overhead "$knobs" >"$tmp/overhead.yaml"

printf 'ssh-overhead: (a) tunelab run, %s trials ...\n' "$TRIALS" >&2
"$root/tunelab" --version >/dev/null # build outside the measurement
t0=$(date +%s%N)
if ! (cd "$root" && TUNELAB_TRACE=$tmp/overhead.trace ./tunelab run --db "$tmp/tunelab.db" "$tmp/overhead.yaml") >"$tmp/tunelab.log" 2>&1; then
  cat "$tmp/tunelab.log" >&2
  die "tunelab run failed (above)"
fi
t1=$(date +%s%N)

# The first trial also journals every original value: left out, like the shell's first.
sqlite3 "$tmp/tunelab.db" "
  select cast(((julianday(finished_at) - julianday(started_at)) * 86400 - coalesce(workload_seconds, 0)) * 1e6 as integer)
  from trials where status = 'ok' and seq > 1 order by seq" >"$tmp/tunelab-in-trial.us"
period_us "$tmp/tunelab.db" >"$tmp/tunelab-period.us"
ok=$(sqlite3 "$tmp/tunelab.db" "select count(*) from trials where status = 'ok'")
[ "$ok" -eq "$TRIALS" ] || die "tunelab ran $ok of $TRIALS trials ok; its database: $tmp/tunelab.db"

snapshot >"$tmp/after-tunelab"
cmp -s "$tmp/originals" "$tmp/after-tunelab" ||
  printf 'ssh-overhead: WARNING: tunelab did not restore every value:\n%s\n' \
    "$(diff "$tmp/originals" "$tmp/after-tunelab" || true)" >&2

printf 'ssh-overhead: the floor of (a), %s trials ...\n' "$TRIALS" >&2
floor knobs "$knobs"

# --- (a2) the same over knobs whose writes do not freeze the queue ----------------------------
knob_matrix ssh-overhead-calm "$CALM" >"$tmp/calm.yaml"
printf 'ssh-overhead: (a2) tunelab run, %s trials, knobs without a queue freeze ...\n' "$TRIALS" >&2
if ! (cd "$root" && TUNELAB_TRACE=$tmp/calm.trace ./tunelab run --db "$tmp/calm.db" "$tmp/calm.yaml") >"$tmp/calm.log" 2>&1; then
  cat "$tmp/calm.log" >&2
  die "tunelab run (a2) failed (above)"
fi
period_us "$tmp/calm.db" >"$tmp/calm-period.us"
snapshot >"$tmp/after-calm"
cmp -s "$tmp/originals" "$tmp/after-calm" ||
  printf 'ssh-overhead: WARNING: tunelab did not restore every value:\n%s\n' \
    "$(diff "$tmp/originals" "$tmp/after-calm" || true)" >&2

printf 'ssh-overhead: the floor of (a2), %s trials ...\n' "$TRIALS" >&2
floor calm "$CALM"

# --- (c) no knobs: one cell, workload `true` -------------------------------------------------
{
  echo "name: ssh-overhead-noknobs"
  echo "description: generated by bench/ssh-overhead.sh; one cell without knobs, $TRIALS repetitions"
  echo "hosts: $LAB_INVENTORY"
  echo "roles:"
  echo "  server: server"
  echo "matrix:"
  echo "  p: [a]"
  echo "repeat: $TRIALS"
  echo "order: sequential"
  echo "workload:"
  echo "  on: server"
  echo '  command: "true"'
} >"$tmp/noknobs.yaml"
printf 'ssh-overhead: (c) tunelab run, one cell without knobs, %s trials ...\n' "$TRIALS" >&2
if ! (cd "$root" && TUNELAB_TRACE=$tmp/noknobs.trace ./tunelab run --db "$tmp/noknobs.db" "$tmp/noknobs.yaml") >"$tmp/noknobs.log" 2>&1; then
  cat "$tmp/noknobs.log" >&2
  die "tunelab run (no knobs) failed (above)"
fi
period_us "$tmp/noknobs.db" >"$tmp/noknobs-period.us"

printf 'ssh-overhead: the floor of (c), %s trials ...\n' "$TRIALS" >&2
floor noknobs ""

# --- (d) the agents' CPU time while a workload runs -------------------------------------------
# Prints "STATE_DIR UTIME STIME" (clock ticks) of every agent process (serve, its stdin reader
# and a trial's shells) on this machine: both lab hosts share its kernel.
agent_ticks() {
  for d in /proc/[0-9]*; do
    c=$({ tr '\000' ' ' <"$d/cmdline"; } 2>/dev/null) || continue
    case $c in *tunelab-agent-*.sh*) ;; *) continue ;; esac
    e=$({ tr '\000' '\n' <"$d/environ"; } 2>/dev/null | sed -n 's/^TUNELAB_STATE=//p') || e=
    s=$(cat "$d/stat" 2>/dev/null) || continue
    s=${s##*) }
    # shellcheck disable=SC2086 # the fields of /proc/PID/stat
    set -- $s
    echo "${e:-default} ${d#/proc/} ${12} ${13}"
  done
}
{
  echo "name: ssh-overhead-cpu"
  echo "description: generated by bench/ssh-overhead.sh; the agents idle while the server sleeps 10 s"
  echo "hosts: $LAB_INVENTORY"
  echo "roles:"
  echo "  server: server"
  echo "  client: client"
  echo "matrix:"
  echo "  client.block.$CLIENT_DISK.read_ahead_kb: [$(value read_ahead_kb 1)]"
  echo "workload:"
  echo "  on: server"
  echo '  command: "sleep 10"'
} >"$tmp/cpu.yaml"
printf 'ssh-overhead: (d) the agents CPU time over a 10 s workload ...\n' >&2
(cd "$root" && ./tunelab run --db "$tmp/cpu.db" "$tmp/cpu.yaml") >"$tmp/cpu.log" 2>&1 &
cpu_pid=$!
# Sampled once the workload runs (a `sleep 10` under a trial's agent), and again 8 s later.
n=0
until pgrep -f '^sleep 10$' >/dev/null 2>&1 && [ -d /proc/"$(pgrep -f '^sleep 10$' | head -n 1)" ]; do
  n=$((n + 1))
  [ "$n" -lt 600 ] || die "the CPU run did not start its workload: $tmp/cpu.log"
  sleep 0.05
done
sleep 0.5
agent_ticks >"$tmp/cpu.before"
sleep 8
agent_ticks >"$tmp/cpu.after"
wait "$cpu_pid" || { cat "$tmp/cpu.log" >&2; die "tunelab run (CPU) failed (above)"; }
# Processes present at both samples only (the same pid): their ticks over the 8 s.
cpu_ticks=$(awk 'NR == FNR { b[$1 " " $2] = $3 + $4; next }
  ($1 " " $2) in b { d[$1] += $3 + $4 - b[$1 " " $2]; p[$1]++ }
  END { for (k in d) { printf "%s%s: %d ticks in %d processes", sep, k, d[k], p[k]; sep = "; " } }' \
  "$tmp/cpu.before" "$tmp/cpu.after")
hz=$(getconf CLK_TCK)

# --- (b) the shell loop ----------------------------------------------------------------------
printf 'ssh-overhead: (b) shell loop with ControlMaster, %s trials ...\n' "$TRIALS" >&2
lab_ssh "$SERVER_ADDRESS" true </dev/null # open both shared connections before timing
lab_ssh "$CLIENT_ADDRESS" true </dev/null
: >"$tmp/shell.us"
i=1
while [ "$i" -le "$TRIALS" ]; do
  s=$(date +%s%N)
  for pair in "$SERVER_ADDRESS:$SERVER_DISK" "$CLIENT_ADDRESS:$CLIENT_DISK"; do
    a=${pair%%:*}
    disk=${pair#*:}
    for k in $KNOBS; do
      lab_ssh "$a" "echo $(value "$k" $((i % 2))) > /sys/block/$disk/queue/$k" </dev/null
    done
  done
  lab_ssh "$SERVER_ADDRESS" true </dev/null
  e=$(date +%s%N)
  [ "$i" -eq 1 ] || echo $(((e - s) / 1000)) >>"$tmp/shell.us"
  i=$((i + 1))
done

# --- results ---------------------------------------------------------------------------------
read -r in_med in_mean <<EOF
$(summary <"$tmp/tunelab-in-trial.us")
EOF
read -r per_med per_mean <<EOF
$(summary <"$tmp/tunelab-period.us")
EOF
read -r sh_med sh_mean <<EOF
$(summary <"$tmp/shell.us")
EOF
read -r nk_med nk_mean <<EOF
$(summary <"$tmp/noknobs-period.us")
EOF
read -r calm_med calm_mean <<EOF
$(summary <"$tmp/calm-period.us")
EOF

echo
echo "Orchestration overhead per trial: 2 hosts, 10 knobs changed in every trial, workload"
echo "'true' on the server; $TRIALS trials each, the first left out; milliseconds."
echo
printf '%-44s %10s %10s\n' "" median mean
printf '%-44s %10s %10s\n' "tunelab, trial start to end" "$in_med" "$in_mean"
printf '%-44s %10s %10s\n' "tunelab, trial start to next trial's start" "$per_med" "$per_mean"
printf '%-44s %10s %10s\n' "shell loop, ssh ControlMaster, 1 ssh per knob" "$sh_med" "$sh_mean"
printf '%-44s %10s %10s\n' "tunelab, 10 knobs without a queue freeze" "$calm_med" "$calm_mean"
printf '%-44s %10s %10s\n' "tunelab, no knobs, start to next start" "$nk_med" "$nk_mean"
echo
echo "Phases per trial (TUNELAB_TRACE), medians in ms. A host's phase is one agent request,"
echo "timed from send to answer; (ctl) phases are the controller's and include those."
echo "2 hosts x 10 knobs:"
phases "$tmp/overhead.trace"
echo "2 hosts x 10 knobs without a queue freeze:"
phases "$tmp/calm.trace"
echo "no knobs:"
phases "$tmp/noknobs.trace"
echo
echo "The floor of each case (same run): the same knob writes by a bare dash loop over one open"
echo "SSH channel per host, the five programs a trial forks, one awk over the health files before"
echo "and after them (the one after with the kernel's new lines and the knobs read back; on a"
echo "host with knobs only, with its writes and once the server has answered: check), one"
echo "fsync'd SQLite commit; medians in ms, per phase, and the ratio tunelab / floor per trial:"
printf '  %-12s %10s %10s %10s %10s %10s %10s\n' case tunelab floor knobs run check commit
for c in knobs:"$per_med" calm-knobs:"$calm_med" no-knobs:"$nk_med"; do
  name=${c%%:*}
  case $name in calm-knobs) file=calm ;; no-knobs) file=noknobs ;; *) file=knobs ;; esac
  set --
  for col in 1 2 3 4 5; do
    set -- "$@" "$(cut -d ' ' -f "$col" "$tmp/floor-$file.us" | summary | cut -d ' ' -f 1)"
  done
  printf '  %-12s %10s %10s %10s %10s %10s %10s\n' "$name" "${c#*:}" "$@"
  echo "$name ${c#*:} $1" >>"$tmp/ratios"
done
echo
awk '{ printf "floor-ratio %s = %.2f\n", $1, ($3 > 0 ? $2 / $3 : 0) }' "$tmp/ratios"
echo
printf 'agents CPU time while the server ran sleep 10 (8 s sampled, %s ticks/s): %s\n' "$hz" "$cpu_ticks"
echo
awk -v s="$sh_med" -v t="$per_med" 'BEGIN {
  if (t > 0) printf "ratio (medians): shell loop / tunelab = %.1f\n", s / t
}'
printf '(load average %s at the start, %s at the end, %s CPUs)\n' "$load_start" \
  "$(cut -d ' ' -f 1-3 /proc/loadavg)" "$(getconf _NPROCESSORS_ONLN)"
printf '(tunelab wall time for the whole run, start-up and restore included: %.1f s)\n' \
  "$(echo "$t0 $t1" | awk '{ print ($2 - $1) / 1e9 }')"

#!/usr/bin/env bash
# bench/faults.sh [COUNT] — inject the faults of an unattended night and print what happened.
#
# Eighteen rows, one per fault (docs/reliability.md has a full run's table and what each row
# means for a user). Every row checks that no trial was lost or stored twice, that the knob
# it tuned is back at its original value and that no process the run started is left.
# The script exits 1 when any row lost, duplicated or left something, or did not behave.
#
#   COUNT                 controller kill -9s in row 1 (default 20)
#   FAULTS_SEED=N         seed of row 1's random moments (default: from the clock; printed)
#   FAULTS_DB_LOCK=S      seconds row 6 holds the database's write lock (default 40)
#   FAULTS_ROWS="1 5 7"   run only these rows (default: all)
#   FAULTS_PG_HANG=S      seconds row 15 keeps the PostgreSQL server stopped (default 40)
#
# Rows 14 to 18 store into PostgreSQL (lab/postgres, docs/fleet.md), each into a database of
# its own: started here when it is down and stopped again at the end.
# Rows 12 and 13 need the VM lab (lab/vm, docs/lab.md): started here when it is down (about
# a minute from the cached image; the first time on a machine also builds the image) and
# taken down at the end; a VM lab already up is someone else's, and those rows say
# "skipped: VM lab busy".
# Needs root: loop disks, a tmpfs, sysfs writes and, for rows 2 and 3, the SSH lab
# (lab/lab, docs/lab.md): started here only when no lab listens on 127.0.0.2:2222 and
# taken down again at the end; a lab someone else started is left alone and those rows
# say "skipped: lab busy". The local agent gets a state directory of its own
# (TUNELAB_STATE), which is also how its processes are found and counted.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
COUNT=${1:-20}
SEED=${FAULTS_SEED:-$(($(date +%s) % 32768))}
DB_LOCK=${FAULTS_DB_LOCK:-40}
PG_HANG=${FAULTS_PG_HANG:-40}
ROWS=${FAULTS_ROWS:-1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19}
JAR=$ROOT/orchestrator/target/tunelab.jar
LABHOST=/var/tmp/tunelab-lab

[ "$(id -u)" -eq 0 ] || { echo "faults.sh: needs root (loop disks, tmpfs, sysfs)" >&2; exit 2; }
case $COUNT in '' | *[!0-9]*) echo "usage: bench/faults.sh [COUNT]" >&2; exit 2 ;; esac
"$ROOT/tunelab" --version >/dev/null || { echo "faults.sh: cannot build or run tunelab" >&2; exit 4; }

WORK=$(mktemp -d /tmp/tunelab-faults.XXXXXX)
STATE=$WORK/state
LOOP=
MOUNTED=
LAB_MINE=
VM_MINE=
PG_MINE=
PG_DBS=()
BG=()

cleanup() {
  for p in "${BG[@]}"; do kill -KILL "$p" 2>/dev/null; done
  [ -n "$MOUNTED" ] && { umount "$MOUNTED" 2>/dev/null || umount -l "$MOUNTED"; }
  if [ -n "$LOOP" ]; then
    # whatever a failed row left set, the journal puts back
    tl restore >/dev/null 2>&1
    losetup -d "/dev/$LOOP" 2>/dev/null
  fi
  if [ -n "$LAB_MINE" ]; then
    "$ROOT/lab/lab" down >/dev/null 2>&1 || "$ROOT/lab/lab" down --force >/dev/null 2>&1
  fi
  [ -z "$VM_MINE" ] || "$ROOT/lab/vm" down >/dev/null 2>&1
  for d in "${PG_DBS[@]}"; do pq tunelab "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1; done
  [ -z "$PG_MINE" ] || "$ROOT/lab/postgres" down >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# tunelab with this script's agent state; the grace is short so a killed run's agent ends soon.
tl() { TUNELAB_STATE=$STATE TUNELAB_GRACE=2 java -jar "$JAR" "$@"; }
# The same, only ever started with &: exec makes the background subshell the JVM itself, so $!
# is the controller's pid (kill -9 of a function's subshell leaves its java running).
tl_bg() { TUNELAB_STATE=$STATE TUNELAB_GRACE=2 exec java -jar "$JAR" "$@"; }
q() { sqlite3 -cmd '.timeout 60000' "$1" "$2"; }
now() { date +%s.%N; }
since() { printf '%.0f s' "$(echo "$(now) - $1" | bc)"; }
ra() { cat "/sys/block/$1/queue/read_ahead_kb"; }

# Live processes (other than this script) with TUNELAB_STATE=$1 in their environment.
procs_with() {
  local marker="TUNELAB_STATE=$1" n=0 p
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = $$ ] && continue
    if { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qxF "$marker"; then
      n=$((n + 1))
      [ -z "${SHOW:-}" ] || echo "left: ${p#/proc/} $({ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null)" >&2
    fi
  done
  echo "$n"
}
# The same count, after waiting up to $2 s for it to reach 0.
left_after() {
  local end=$(($(date +%s) + $2)) n
  while n=$(procs_with "$1"); [ "$n" -ne 0 ] && [ "$(date +%s)" -lt "$end" ]; do sleep 0.2; done
  [ "$n" -eq 0 ] || SHOW=1 procs_with "$1" >/dev/null
  echo "$n"
}

# Trials of the database $1 not ok (lost), and trials with more than one sample set (dup).
lost_in() { q "$1" "select count(*) from trials where status <> 'ok' or id not in
  (select trial_id from samples where job = 'all' and metric = 'seconds')"; }
dup_in() { q "$1" "select count(*) from (select trial_id from samples where job = 'all'
  and metric = 'seconds' group by trial_id having count(*) > 1)"; }
attempts_in() { q "$1" "select group_concat(s, ',') from (select t.seq || ' ' || a.status s
  from trial_attempts a join trials t on t.id = a.trial_id order by t.seq, a.attempt)"; }

# Waits until trial $2 of database $1 runs (or $3 s pass).
wait_trial() {
  local end=$(($(date +%s) + ${3:-60}))
  while [ "$(date +%s)" -lt "$end" ]; do
    [ -f "$1" ] && [ -n "$(q "$1" "select 1 from trials where seq = $2 and status = 'running'" 2>/dev/null)" ] &&
      return 0
    sleep 0.05
  done
  return 1
}

# Runs fault function $3 a second into trial 2 of the run $1 (its pid), which writes database
# $2, waiting up to $4 s for that trial; sets WHAT (what the fault did) and RC (the run's exit).
# Status 1, the run killed, when trial 2 never started.
WHAT= RC=
hit_trial2() {
  BG+=("$1")
  if ! wait_trial "$2" 2 "$4"; then
    kill -KILL "$1"
    return 1
  fi
  sleep 1
  WHAT=$("$3")
  wait "$1"
  RC=$?
}

# Every pid below $1.
descendants() {
  local c
  for c in $(ps -o pid= --ppid "$1"); do
    echo "$c"
    descendants "$c"
  done
}

NAMES=() DONE=() LOST=() DUP=() KNOBS=() LEFT=() TIME=() BAD=0
row() { # n fault happened lost dup knobs left time ok(0/1)
  local happened=$3
  [ "$9" = 1 ] || happened="FAILS: $3"
  NAMES[$1]=$2 DONE[$1]=$happened LOST[$1]=$4 DUP[$1]=$5 KNOBS[$1]=$6 LEFT[$1]=$7 TIME[$1]=$8
  [ "$9" = 1 ] || BAD=1
  printf 'row %s: %s: %s (lost %s, dup %s, knobs %s, procs %s, %s)\n' "$1" "$2" "$happened" "$4" "$5" "$6" "$7" "$8" >&2
}
skip() { NAMES[$1]=$2 DONE[$1]=$3 LOST[$1]=- DUP[$1]=- KNOBS[$1]=- LEFT[$1]=- TIME[$1]=-; }
want() { [[ " $ROWS " == *" $1 "* ]]; }

# The local loop disk every local row tunes.
dd if=/dev/zero of="$WORK/disk.img" bs=1M count=16 status=none
LOOP=$(losetup -f --show "$WORK/disk.img") || exit 3
LOOP=${LOOP#/dev/}
ORIG=$(ra "$LOOP")

# A local matrix $1 (file) with the knob, $2 trials of workload $3, and extra YAML $4.
local_matrix() {
  cat >"$1" <<EOF
name: $(basename "$1" .yaml)
${4:-}matrix:
  local.block.$LOOP.read_ahead_kb: [1024, 2048, 4096]
repeat: $2
workload:
  command: $3
EOF
}

echo "faults.sh: seed $SEED, count $COUNT, db lock ${DB_LOCK}s, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)" >&2

# 1. kill -9 of the controller at COUNT random moments, each followed by resume (every
#    other one by restore first); a finished experiment is followed by a new one.
if want 1; then
  t0=$(now) db=$WORK/kill.db m=$WORK/kill.yaml
  local_matrix "$m" 8 "sleep 0.2"
  RANDOM=$SEED
  kills=0 restores=0
  while [ "$kills" -lt "$COUNT" ]; do
    exp=$(q "$db" "select max(id) from experiments" 2>/dev/null)
    status=$(q "$db" "select status from experiments where id = '$exp'" 2>/dev/null)
    if [ -z "$exp" ] || [ "$status" = finished ]; then
      tl_bg run "$m" --db "$db" >>"$WORK/kill.out" 2>&1 &
      pid=$!
      BG+=("$pid")
      # a kill before the new plan is stored leaves nothing to resume: the moment counts from then
      end=$(($(date +%s) + 120))
      while kill -0 "$pid" 2>/dev/null && [ "$(date +%s)" -lt "$end" ] &&
        [ "$(q "$db" "select coalesce(max(id), 0) from experiments" 2>/dev/null || echo 0)" = "${exp:-0}" ]; do
        sleep 0.05
      done
    else
      tl_bg resume "$exp" --db "$db" >>"$WORK/kill.out" 2>&1 &
      pid=$!
      BG+=("$pid")
    fi
    ms=$((RANDOM % 4000 + 300))
    sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
    if kill -KILL "$pid" 2>/dev/null; then kills=$((kills + 1)); fi
    wait "$pid" 2>/dev/null
    if [ $((kills % 2)) -eq 0 ]; then
      tl restore --db "$db" >>"$WORK/kill.out" 2>&1 && restores=$((restores + 1))
    fi
  done
  exp=$(q "$db" "select max(id) from experiments")
  [ "$(q "$db" "select status from experiments where id = $exp")" = finished ] ||
    tl resume "$exp" --db "$db" >>"$WORK/kill.out" 2>&1
  unfinished=$(q "$db" "select count(*) from experiments where status <> 'finished'")
  lost=$(lost_in "$db") dup=$(dup_in "$db")
  knob=$([ "$(ra "$LOOP")" = "$ORIG" ] && echo 0 || echo 1)
  left=$(left_after "$STATE" 10)
  trials=$(q "$db" "select count(*) from trials") exps=$(q "$db" "select count(*) from experiments")
  # a row whose every kill came before the plan was stored has tested nothing
  ok=$([ "$lost$dup$knob$left$unfinished" = 00000 ] && [ "$trials" -gt 0 ] && echo 1 || echo 0)
  row 1 "controller kill -9 x$COUNT (seed $SEED), resume after each ($restores after restore)" \
    "$exps experiment(s), $trials trials all ok once; $unfinished unfinished" \
    "$lost" "$dup" "$knob" "$left" "$(since "$t0")" "$ok"
fi

# Lab rows: the lab's server runs `sleep 3` three times, a knob set on each host; the
# fault hits trial 2, which must be lost once and then ok.
# Starts lab $1 (lab: lab/lab, vm: lab/vm) once for all the rows that need it: status 0 when
# it was started here, 1 when someone else's is up (left alone), 2 when it did not start.
declare -A UP_STATE=()
lab_busy() {
  case $1 in
    lab) ss -ltn | grep -q '127.0.0.2:2222 ' ;;
    vm) [ -d "$ROOT/lab/vm-state" ] || ss -ltn | grep -q '127.0.0.12:2222 ' ;;
  esac
}
bring_up() {
  [ -n "${UP_STATE[$1]:-}" ] && return "${UP_STATE[$1]}"
  if lab_busy "$1"; then
    UP_STATE[$1]=1
  elif "$ROOT/lab/$1" up >"$WORK/$1.out" 2>&1; then
    UP_STATE[$1]=0
    if [ "$1" = lab ]; then LAB_MINE=1; else VM_MINE=1; fi
  else
    UP_STATE[$1]=2
  fi
  return "${UP_STATE[$1]}"
}
lab_env() { sed -n "s/^$1=//p" "$ROOT/lab/state/env"; }
lab_row() { # n name fault-function options...
  local n=$1 name=$2 fault=$3
  shift 3
  bring_up lab
  case $? in
    1) skip "$n" "$name" "skipped: lab busy (a lab someone else started listens on 127.0.0.2:2222)"; return ;;
    2) skip "$n" "$name" "NOT RUN: lab/lab up failed ($(tail -1 "$WORK/lab.out"))"; BAD=1; return ;;
  esac
  local sd cd sra cra db=$WORK/lab$n.db m=$WORK/lab$n.yaml t0 rc
  sd=$(lab_env SERVER_DISK) cd=$(lab_env CLIENT_DISK) sra=$(ra "$sd") cra=$(ra "$cd")
  cat >"$m" <<EOF
name: lab-fault-$n
roles: {server: server, client: client}
settings:
  server.block.$sd.read_ahead_kb: 4096
  client.block.$cd.read_ahead_kb: 2048
repeat: 3
workload:
  on: server
  command: sleep 3
EOF
  t0=$(now)
  java -jar "$JAR" run "$m" --hosts "$ROOT/lab/hosts.yaml" --db "$db" "$@" >"$WORK/lab$n.out" 2>&1 &
  if ! hit_trial2 $! "$db" "$fault" 60; then
    row "$n" "$name" "trial 2 never started: $(tail -1 "$WORK/lab$n.out")" ? ? ? ? "$(since "$t0")" 0
    return
  fi
  local what=$WHAT
  rc=$RC
  "$ROOT/lab/lab" up >/dev/null 2>&1
  local att lost dup knob left ok
  att=$(attempts_in "$db") lost=$(lost_in "$db") dup=$(dup_in "$db")
  knob=$(([ "$(ra "$sd")" = "$sra" ] || echo x; [ "$(ra "$cd")" = "$cra" ] || echo x) | wc -l)
  left=$(($(left_after "$LABHOST/server/agent" 10) + $(left_after "$LABHOST/client/agent" 5)))
  ok=$([ "$rc" = 0 ] && [ "$att" = "1 ok,2 lost,2 ok,3 ok" ] && [ "$lost$dup$knob$left" = 0000 ] && echo 1 || echo 0)
  row "$n" "$name" "$what; exit $rc; attempts: $att$(grep -o 'reconnected after [0-9.]* s' "$WORK/lab$n.out" | head -1 | sed 's/^/; /')" \
    "$lost" "$dup" "$knob" "$left" "$(since "$t0")" "$ok"
}
server_sshd() { cat "$ROOT/lab/state/server/sshd.pid"; }
kill_sshd() {
  local s
  s=$(server_sshd)
  kill -KILL $(descendants "$s") "$s" 2>/dev/null
  sleep 2
  "$ROOT/lab/lab" up >/dev/null 2>&1
  echo "sshd and its sessions killed, restarted 2 s later"
}
stop_sshd() {
  local s p pids
  s=$(server_sshd)
  pids=$s
  for p in $(descendants "$s"); do
    case $(cat "/proc/$p/comm" 2>/dev/null) in sshd*) pids="$pids $p" ;; esac
  done
  kill -STOP $pids
  sleep 8
  kill -CONT $pids
  echo "sshd SIGSTOP 8 s (keepalive 1 s), SIGCONT"
}
want 2 && lab_row 2 "sshd killed and restarted during a trial" kill_sshd --reconnect 30s
want 3 && lab_row 3 "sshd SIGSTOP past the keepalive, then SIGCONT" stop_sshd --keepalive 1s --reconnect 60s

# Local rows 4 and 8: a run of 3 trials of `sleep 3`; the fault hits trial 2.
local_fault_row() { # n name fault-function
  local n=$1 name=$2 fault=$3 db=$WORK/f$1.db m=$WORK/f$1.yaml t0 rc pid what
  cat >"$m" <<EOF
name: fault-$n
settings:
  local.block.$LOOP.read_ahead_kb: 4096
repeat: 3
workload:
  command: sleep 3
EOF
  t0=$(now)
  tl run "$m" --db "$db" >"$WORK/f$n.out" 2>&1 &
  pid=$!
  BG+=("$pid")
  if ! wait_trial "$db" 2; then
    kill -KILL "$pid"
    row "$n" "$name" "trial 2 never started: $(tail -1 "$WORK/f$n.out")" ? ? ? ? "$(since "$t0")" 0
    return
  fi
  sleep 1
  what=$("$fault")
  wait "$pid"
  rc=$?
  rm -f "$STATE/fake-boot-id"
  local att lost dup knob left ok extra
  att=$(attempts_in "$db") lost=$(lost_in "$db") dup=$(dup_in "$db")
  knob=$([ "$(ra "$LOOP")" = "$ORIG" ] && echo 0 || echo 1)
  left=$(left_after "$STATE" 10)
  extra=$(grep -o 'rebooted (boot id [0-9a-f]\{8\}[^>]*-> [0-9a-f]\{8\}\|reconnected after [0-9.]* s' "$WORK/f$n.out" | head -1)
  ok=$([ "$rc" = 0 ] && [ "$att" = "1 ok,2 lost,2 ok,3 ok" ] && [ "$lost$dup$knob$left" = 0000 ] && echo 1 || echo 0)
  if [ "$n" = 8 ]; then
    local written
    written=$(q "$db" "select group_concat(w, ',') from (select s.written w from settings s join trials t
      on t.id = s.trial_id where s.effective = s.requested order by t.seq)")
    [[ "$extra" == rebooted* ]] && [ "$written" = "1,1,0" ] || ok=0
    extra="${extra}…)"
    extra="$extra; written per trial: $written"
  fi
  row "$n" "$name" "$what; exit $rc; attempts: $att${extra:+; $extra}" \
    "$lost" "$dup" "$knob" "$left" "$(since "$t0")" "$ok"
  [ "$rc" = 0 ] || tail -5 "$WORK/f$n.out" >&2
}
kill_agent() {
  kill -KILL "$(cat "$STATE/lock/pid")"
  echo "agent kill -9"
}
fake_reboot() {
  # what a reboot does: the knob back at its default, a new boot id, the session gone
  echo "$ORIG" >"/sys/block/$LOOP/queue/read_ahead_kb"
  echo 0badb007-0000-4000-8000-000000000008 >"$STATE/fake-boot-id"
  kill -KILL "$(cat "$STATE/lock/pid")"
  echo "knob reset, fake-boot-id written, agent killed"
}
want 4 && local_fault_row 4 "agent killed mid-trial (local)" kill_agent

# 5. A workload that ignores SIGINT, past its timeout: that trial fails, the next runs.
if want 5; then
  t0=$(now) db=$WORK/timeout.db m=$WORK/timeout.yaml
  cat >"$m" <<EOF
name: timeout
settings:
  local.block.$LOOP.read_ahead_kb: 4096
repeat: 2
workload:
  timeout: 2s
  command: sh -c 'if [ ! -e $WORK/hung ]; then touch $WORK/hung; trap "" INT; sleep 30; fi; sleep 0.2'
EOF
  tl run "$m" --db "$db" >"$WORK/timeout.out" 2>&1
  rc=$?
  st=$(q "$db" "select group_concat(status, ',') from (select status from trials order by seq)")
  err=$(q "$db" "select printf('%.1f s', (julianday(finished_at) - julianday(started_at)) * 86400)
    || coalesce(', ' || substr(error, 1, 60), '') from trials where seq = 1")
  dup=$(dup_in "$db")
  lost=$(q "$db" "select count(*) from trials where seq = 2 and status <> 'ok'")
  knob=$([ "$(ra "$LOOP")" = "$ORIG" ] && echo 0 || echo 1)
  left=$(left_after "$STATE" 5)
  ok=$([ "$rc" = 1 ] && [ "$st" = "failed,ok" ] && [ "$lost$dup$knob$left" = 0000 ] && echo 1 || echo 0)
  row 5 "workload ignoring SIGINT past timeout: 2s" "exit $rc; trials: $st; trial 1: $err" \
    "$lost" "$dup" "$knob" "$left" "$(since "$t0")" "$ok"
fi

# 6. Another writer holds the database's write lock while trials finish.
if want 6; then
  t0=$(now) db=$WORK/locked.db m=$WORK/locked.yaml
  local_matrix "$m" 2 "sleep 0.5"
  tl run "$m" --db "$db" >"$WORK/locked.out" 2>&1 &
  pid=$!
  BG+=("$pid")
  wait_trial "$db" 2
  { echo 'BEGIN IMMEDIATE;'; echo "select 'locked';"; sleep "$DB_LOCK"; echo 'COMMIT;'; } |
    sqlite3 "$db" >"$WORK/locker.out" 2>&1 &
  locker=$!
  BG+=("$locker")
  sleep 1
  held=$(sqlite3 -cmd '.timeout 100' "$db" 'begin immediate; rollback;' >/dev/null 2>&1 && echo no || echo yes)
  wait "$pid"
  rc=$?
  wait "$locker"
  lost=$(lost_in "$db") dup=$(dup_in "$db")
  knob=$([ "$(ra "$LOOP")" = "$ORIG" ] && echo 0 || echo 1)
  left=$(left_after "$STATE" 5)
  ok=$([ "$rc" = 0 ] && [ "$held" = yes ] && [ "$lost$dup$knob$left" = 0000 ] && echo 1 || echo 0)
  row 6 "database write-locked by sqlite3 for ${DB_LOCK} s" \
    "lock held: $held; run waited, exit $rc; $(q "$db" "select count(*) from trials") trials all ok" \
    "$lost" "$dup" "$knob" "$left" "$(since "$t0")" "$ok"
fi

# 7. The database on a 4 MiB tmpfs that the first trial fills.
if want 7; then
  t0=$(now) fs=$WORK/fs m=$WORK/full.yaml
  mkdir -p "$fs"
  mount -t tmpfs -o size=4m tunelab-faults "$fs" && MOUNTED=$fs
  db=$fs/t.db
  local_matrix "$m" 2 "sh -c 'if [ ! -e $fs/fill ]; then dd if=/dev/zero of=$fs/fill bs=64k 2>/dev/null; fi; sleep 0.2'"
  tl run "$m" --db "$db" >"$WORK/full.out" 2>&1
  rc=$?
  side=$(ls "$db.pending" 2>/dev/null | wc -l)
  : >"$fs/fill"
  tl resume 1 --db "$db" >"$WORK/full2.out" 2>&1
  rc2=$?
  stored=$(grep -c 'stored trial .* from ' "$WORK/full2.out")
  lost=$(lost_in "$db") dup=$(dup_in "$db")
  # a trial the full disk refused must come back from its side file, not be measured again
  [ "$rc" = 3 ] && [ "$side" -eq 0 ] && lost=$((lost + 1))
  knob=$([ "$(ra "$LOOP")" = "$ORIG" ] && echo 0 || echo 1)
  left=$(left_after "$STATE" 5)
  ok=$([ "$rc" = 3 ] && [ "$side" -ge 1 ] && [ "$rc2" = 0 ] && [ "$stored" -ge 1 ] &&
    [ "$lost$dup$knob$left" = 0000 ] && echo 1 || echo 0)
  row 7 "database on a full 4 MiB tmpfs" \
    "exit $rc ($(grep -o 'cannot [a-z ]* trial [0-9]*: [a-z ]*' "$WORK/full.out" | head -1)), $side side file(s) kept; resume: $stored imported, exit $rc2, all $(q "$db" "select count(*) from trials") ok" \
    "$lost" "$dup" "$knob" "$left" "$(since "$t0")" "$ok"
  umount "$fs" && MOUNTED=
fi

want 8 && local_fault_row 8 "reboot faked by a changed boot id (test hook)" fake_reboot

# 9. A chatty workload: 300 MB on one line of stdout, in each of 2 trials. The agent keeps
#    64 KiB of it; its state directory must not grow meanwhile.
if want 9; then
  t0=$(now) db=$WORK/chatty.db m=$WORK/chatty.yaml
  local_matrix "$m" 1 "head -c 300000000 /dev/zero | tr '\\0' a; echo"
  # one cell of the three is enough: 2 trials
  sed -i 's/\[1024, 2048, 4096\]/[1024, 2048]/' "$m"
  peak=0
  tl run "$m" --db "$db" >"$WORK/chatty.out" 2>&1 &
  pid=$!
  BG+=("$pid")
  while kill -0 "$pid" 2>/dev/null; do
    n=$(du -sk "$STATE" 2>/dev/null | cut -f1)
    [ "${n:-0}" -le "$peak" ] || peak=$n
    sleep 0.2
  done
  wait "$pid"
  rc=$?
  st=$(q "$db" "select group_concat(status, ',') from (select status from trials order by seq)")
  lost=$(lost_in "$db") dup=$(dup_in "$db")
  knob=$([ "$(ra "$LOOP")" = "$ORIG" ] && echo 0 || echo 1)
  left=$(left_after "$STATE" 5)
  ok=$([ "$rc" = 0 ] && [ "$st" = "ok,ok" ] && [ "$peak" -lt 1024 ] && [ "$lost$dup$knob$left" = 0000 ] && echo 1 || echo 0)
  row 9 "chatty workload: 300 MB of output on one line, 2 trials" \
    "exit $rc; trials: $st; state dir at most $peak KiB during the run" \
    "$lost" "$dup" "$knob" "$left" "$(since "$t0")" "$ok"
fi

# 10. The agent's state directory on a full 64 KiB tmpfs: the run is refused before it
#     touches anything; with room again it runs every trial once.
if want 10; then
  t0=$(now) fs=$WORK/statefs db=$WORK/statefull.db m=$WORK/statefull.yaml
  mkdir -p "$fs"
  mount -t tmpfs -o size=64k,mode=0755 tunelab-faults-state "$fs" && MOUNTED=$fs
  mkdir -m 0700 "$fs/state"
  dd if=/dev/zero of="$fs/fill" bs=4k 2>/dev/null
  local_matrix "$m" 2 "sleep 0.2"
  TUNELAB_STATE=$fs/state TUNELAB_GRACE=2 java -jar "$JAR" run "$m" --db "$db" >"$WORK/statefull.out" 2>&1
  rc=$?
  touched=$([ "$(ra "$LOOP")" = "$ORIG" ] && [ -z "$(ls -A "$fs/state")" ] && echo no || echo yes)
  umount "$fs" && MOUNTED=
  tl run "$m" --db "$db" >"$WORK/statefull2.out" 2>&1
  rc2=$?
  lost=$(lost_in "$db") dup=$(dup_in "$db")
  knob=$([ "$(ra "$LOOP")" = "$ORIG" ] && echo 0 || echo 1)
  left=$(left_after "$STATE" 5)
  ok=$([ "$rc" = 3 ] && [ "$touched" = no ] && [ "$rc2" = 0 ] && [ "$lost$dup$knob$left" = 0000 ] && echo 1 || echo 0)
  row 10 "agent state on a full 64 KiB tmpfs" \
    "exit $rc ($(grep -o 'file system has [0-9]* KiB free' "$WORK/statefull.out" | head -1)), knob and state dir touched: $touched; with room: exit $rc2, $(q "$db" "select count(*) from trials") trials all ok" \
    "$lost" "$dup" "$knob" "$left" "$(since "$t0")" "$ok"
fi

# 11. A planted database: a killed run's database whose stored capture was edited to inject
#     shell; the same database with its stored teardown edited and group-writable; then
#     another user's. restore and resume must refuse each (exit 3) before any host is
#     contacted: nothing runs, no journal is replayed. The untouched copy then resumes.
if want 11; then
  t0=$(now) db=$WORK/planted.db m=$WORK/planted.yaml pwned=$WORK/PWNED
  cat >"$m" <<EOF
name: planted
setup:
  - run: echo clean
    capture: tag
teardown:
  - run: echo \${tag} >>$WORK/planted-teardown
settings:
  local.block.$LOOP.read_ahead_kb: 4096
repeat: 3
workload:
  command: sleep 2
EOF
  tl_bg run "$m" --db "$db" >"$WORK/planted.out" 2>&1 &
  pid=$!
  BG+=("$pid")
  wait_trial "$db" 2
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  # its agent restores the knob by itself after the grace, and exits
  left_after "$STATE" 15 >/dev/null
  q "$db" "pragma wal_checkpoint(truncate)" >/dev/null
  cp -p "$db" "$WORK/planted-clean.db"
  : >"$WORK/planted-teardown"
  refusals=() nothing=1
  try_plant() { # $1 what was planted: restore and resume must both exit 3
    local rc1 rc2
    tl restore --db "$db" >>"$WORK/planted.out" 2>&1
    rc1=$?
    tl resume 1 --db "$db" >>"$WORK/planted.out" 2>&1
    rc2=$?
    refusals+=("$1 $rc1/$rc2")
    [ "$rc1$rc2" = 33 ] || nothing=0
  }
  q "$db" "update variables set value = 'x; touch $pwned; #' where name = 'tag'"
  try_plant "capture edited"
  cp -p "$WORK/planted-clean.db" "$db"
  q "$db" "update experiments set matrix_yaml = replace(matrix_yaml, 'echo \${tag}', 'touch $pwned; echo')"
  chmod g+w "$db"
  try_plant "steps edited and g+w"
  chmod 600 "$db"
  chown nobody "$db"
  try_plant "another user's"
  { [ -e "$pwned" ] || [ -s "$WORK/planted-teardown" ]; } && nothing=0
  planted_knob=$(ra "$LOOP")
  cp -p "$WORK/planted-clean.db" "$db"
  chown root "$db"
  chmod 600 "$db"
  tl resume 1 --db "$db" >"$WORK/planted2.out" 2>&1
  rc=$?
  lost=$(lost_in "$db") dup=$(dup_in "$db")
  knob=$([ "$(ra "$LOOP") $planted_knob" = "$ORIG $ORIG" ] && echo 0 || echo 1)
  left=$(left_after "$STATE" 5)
  teardown=$(sort -u "$WORK/planted-teardown" | tr '\n' ' ')
  ok=$([ "$nothing" = 1 ] && [ "$rc" = 0 ] && [ ! -e "$pwned" ] && [ "$teardown" = "clean " ] &&
    [ "$lost$dup$knob$left" = 0000 ] && echo 1 || echo 0)
  row 11 "planted database (a killed run's): capture edited; steps edited and g+w; another user's" \
    "restore/resume exit $(IFS=,; echo "${refusals[*]}"); ran: $([ "$nothing" = 1 ] && echo nothing || echo SOMETHING); untouched copy: resume exit $rc, $(q "$db" "select count(*) from trials where status = 'ok'") trials ok, teardown with tag=${teardown% }" \
    "$lost" "$dup" "$knob" "$left" "$(since "$t0")" "$ok"
fi

# VM rows: the iSCSI study (matrices/studies/iscsi-readahead.yaml) on the VM lab's guests,
# one cell of three 128 MiB reads of the LUN, knobs on both guests; the fault hits trial 2.
vm_env() { sed -n "s/^$1=//p" "$ROOT/lab/vm-state/env"; }
vm_ssh() { "$ROOT/lab/vm" ssh "$@" 2>/dev/null; }
# The server's scheduler and read-ahead of the LUN's disk $1.
vm_knobs() { vm_ssh server "cat /sys/block/$1/queue/scheduler /sys/block/$1/queue/read_ahead_kb" | paste -sd' ' -; }
# Agents still serving on the guests (a lock whose holder lives), and journals left.
vm_left() {
  local h n=0
  for h in server client; do
    n=$((n + $(vm_ssh "$h" 'n=0; [ -e /run/tunelab/journal ] && n=1; p=$(cat /run/tunelab/lock/pid 2>/dev/null) && kill -0 "$p" 2>/dev/null && n=$((n + 1)); echo $n')))
  done
  echo "$n"
}
vm_row() { # n name fault-function expected-attempts...
  local n=$1 name=$2 fault=$3
  shift 3
  bring_up vm
  case $? in
    1) skip "$n" "$name" "skipped: VM lab busy (lab/vm is up already)"; return ;;
    2) skip "$n" "$name" "NOT RUN: lab/vm up failed ($(tail -1 "$WORK/vm.out"))"; BAD=1; return ;;
  esac
  local lun db=$WORK/vm$n.db t0 rc before
  lun=$(vm_env SERVER_LUN_DISK) before=$(vm_knobs "$lun")
  t0=$(now)
  java -jar "$JAR" run "$ROOT/matrices/studies/iscsi-readahead.yaml" --hosts "$ROOT/lab/vm-hosts.yaml" \
    --db "$db" --set client_host=client --set server_host=server --set portal="$(vm_env ISCSI_PORTAL)" \
    --set iqn="$(vm_env ISCSI_IQN)" --set lun_disk="$lun" --set repeat=3 --set total=128MiB \
    --set threads=2 --set scheduler=none --set bs=16M --set case=client:ra=2M+server:ra=2M \
    >"$WORK/vm$n.out" 2>&1 &
  if ! hit_trial2 $! "$db" "$fault" 300; then
    row "$n" "$name" "trial 2 never started: $(tail -1 "$WORK/vm$n.out")" ? ? ? ? "$(since "$t0")" 0
    return
  fi
  local what=$WHAT
  rc=$RC
  local att lost dup knob left ok=0 e extra
  att=$(attempts_in "$db") lost=$(lost_in "$db") dup=$(dup_in "$db")
  knob=$([ "$(vm_knobs "$lun")" = "$before" ] && echo 0 || echo 1)
  # a session left on the client counts as a knob left changed
  vm_ssh client 'iscsiadm -m session' >/dev/null && knob=$((knob + 1))
  left=$(vm_left)
  for e in "$@"; do [ "$att" = "$e" ] && ok=1; done
  [ "$rc" = 0 ] && [ "$lost$dup$knob$left" = 0000 ] || ok=0
  extra=$(grep -o 'rebooted (boot id [^)]*), back after [0-9.]* s\|reconnected after [0-9.]* s\|setting the cell up again' "$WORK/vm$n.out" | sed 's/boot id [^ ]* -> [^)]*/new boot id/' | paste -sd';' - | sed 's/;/; /g')
  row "$n" "$name" "$what; exit $rc; attempts: $att${extra:+; $extra}" \
    "$lost" "$dup" "$knob" "$left" "$(since "$t0")" "$ok"
}
power_loss() {
  "$ROOT/lab/vm" kill client >/dev/null 2>&1
  local t=$(now)
  "$ROOT/lab/vm" power-cycle client >/dev/null 2>&1
  echo "client QEMU killed, power-cycled (back in $(since "$t"))"
}
hang() {
  "$ROOT/lab/vm" pause server >/dev/null 2>&1
  sleep 20
  "$ROOT/lab/vm" resume server >/dev/null 2>&1
  echo "server paused 20 s, resumed"
}
want 12 && vm_row 12 "client power loss mid-run (VM lab, iSCSI study)" power_loss "1 ok,2 lost,2 ok,3 ok"
want 13 && vm_row 13 "server hung 20 s mid-trial (VM lab, iSCSI study)" hang "1 ok,2 ok,3 ok" "1 ok,2 lost,2 ok,3 ok"

# PostgreSQL rows: a run of 2 cells x N of `sleep 1` into a database of its own on
# lab/postgres, the loop disk's read_ahead_kb tuned per cell; the fault hits it mid-run.
PG_BASE=/var/tmp/tunelab-postgres
pq() { psql -X -qtA -h 127.0.0.1 -p "$PG_PORT" -U tunelab -d "$1" -c "$2"; }
pg_up() {
  [ -z "${PG_PORT:-}" ] || return 0
  "$ROOT/lab/postgres" status >/dev/null 2>&1 || PG_MINE=1
  "$ROOT/lab/postgres" up >/dev/null || return 1
  PG_URL=$(sed -n 's/^TUNELAB_PG_URL=//p' "$PG_BASE/env")
  PGPASSFILE=$(sed -n 's/^PGPASSFILE=//p' "$PG_BASE/env")
  export PGPASSFILE
  PG_PORT=${PG_URL##*:}
  PG_PORT=${PG_PORT%%/*}
}
pg_db() { # n: a fresh database for row n; prints its URL
  local name=faults_$$_$1
  pq tunelab "DROP DATABASE IF EXISTS $name" >/dev/null && pq tunelab "CREATE DATABASE $name" >/dev/null
  PG_DBS+=("$name")
  echo "${PG_URL%/*}/$name${PG_OPTIONS:-}"
}
pg_name() { # url: its database's name, without ?options
  local name=${1##*/}
  echo "${name%%\?*}"
}
pg_server_pids() { # the postmaster and its children, the processes lab/postgres started
  local pm
  pm=$(head -1 "$PG_BASE/data/postmaster.pid")
  # shellcheck disable=SC2046 # one pid per word
  echo "$pm" $(ps -o pid= --ppid "$pm")
}
# lost: trials not ok once; dup: trials with more than one sample set, attempt or trial event
pg_lost() { pq "$1" "select count(*) from trials where status <> 'ok' or id not in
  (select trial_id from samples where job = 'all' and metric = 'seconds')"; }
pg_dup() { pq "$1" "select (select count(*) from (select trial_id from samples where job = 'all'
  and metric = 'seconds' group by trial_id having count(*) > 1) s)
  + (select count(*) - count(distinct trial_id) from trial_attempts where status = 'ok')
  + (select count(*) - count(distinct message) from events where kind = 'trial')"; }
pg_row() { # n name fault-function trials [resume]
  local n=$1 name=$2 fault=$3 trials=$4 m=$WORK/pg$1.yaml url t0 pid rc rc2=- what
  if ! pg_up; then skip "$n" "$name" "skipped: lab/postgres did not start"; return; fi
  url=$(pg_db "$n") || { skip "$n" "$name" "skipped: no database"; return; }
  cat >"$m" <<EOF
name: pg-fault-$n
matrix:
  local.block.$LOOP.read_ahead_kb: [1024, 2048]
repeat: $((trials / 2))
workload:
  command: sleep 1
EOF
  t0=$(now)
  TUNELAB_DB_WAIT=${PG_WAIT:-10m} tl_bg run "$m" --db "$url" >"$WORK/pg$n.out" 2>&1 &
  pid=$!
  BG+=("$pid")
  local end=$(($(date +%s) + 120))
  until [ "$(pq "$(pg_name "$url")" "select count(*) from trials where status = 'ok'" 2>/dev/null || echo 0)" -ge "${PG_AFTER:-2}" ]; do
    if ! kill -0 "$pid" 2>/dev/null || [ "$(date +%s)" -ge "$end" ]; then
      kill -KILL "$pid" 2>/dev/null
      row "$n" "$name" "the run never reached trial $((${PG_AFTER:-2} + 1)): $(tail -1 "$WORK/pg$n.out")" ? ? ? ? "$(since "$t0")" 0
      return
    fi
    sleep 0.1
  done
  what=$("$fault" "$pid")
  wait "$pid"
  rc=$?
  if [ "${5:-}" = resume ]; then
    tl restore --db "$url" >>"$WORK/pg$n.out" 2>&1
    tl resume 1 --db "$url" >>"$WORK/pg$n.out" 2>&1
    rc2=$?
  fi
  local lost dup knob left ok db
  db=$(pg_name "$url")
  lost=$(pg_lost "$db") dup=$(pg_dup "$db")
  knob=$([ "$(ra "$LOOP")" = "$ORIG" ] && echo 0 || echo 1)
  left=$(left_after "$STATE" 10)
  local n_ok status
  n_ok=$(pq "$db" "select count(*) from trials where status = 'ok'")
  status=$(pq "$db" "select status from experiments")
  ok=$([ "$lost$dup$knob$left" = 0000 ] && [ "$n_ok" = "$trials" ] && [ "$status" = finished ] &&
    { [ "${5:-}" = resume ] && [ "$rc2" = 0 ] || [ "$rc" = 0 ]; } && echo 1 || echo 0)
  row "$n" "$name" "$what; exit $rc${5:+, $5 exit $rc2}; $n_ok of $trials trials ok, experiment $status" \
    "$lost" "$dup" "$knob" "$left" "$(since "$t0")" "$ok"
  [ "$ok" = 1 ] || tail -5 "$WORK/pg$n.out" >&2
}
pg_restart() { "$ROOT/lab/postgres" restart >/dev/null 2>&1; echo "server restarted"; }
pg_hang() {
  local pids
  pids=$(pg_server_pids)
  kill -STOP $pids
  sleep "$PG_HANG"
  kill -CONT $pids
  echo "every server process stopped ${PG_HANG} s"
}
pg_away() {
  "$ROOT/lab/postgres" stop >/dev/null 2>&1
  # the run's wait (TUNELAB_DB_WAIT=5s) runs out: it keeps the trial aside and stops
  while kill -0 "$1" 2>/dev/null; do sleep 0.2; done
  "$ROOT/lab/postgres" up >/dev/null 2>&1
  echo "server stopped until the run gave up (wait 5s), then started"
}
pg_kill() { kill -KILL "$1"; echo "controller killed (kill -9)"; }
pg_lost_answer() {
  local out=$WORK/proxy.out
  # the run talks to the server through the proxy from the start: see row 18 below
  kill -USR1 "$PG_PROXY"
  local end=$(($(date +%s) + 30))
  until grep -q dropped "$out" || [ "$(date +%s)" -ge "$end" ]; do sleep 0.1; done
  grep -q dropped "$out" && echo "the answer to a COMMIT dropped, its connection cut" ||
    echo "no COMMIT answer was dropped"
}
want 14 && pg_row 14 "PostgreSQL server restarted mid-run" pg_restart 10
want 15 && pg_row 15 "PostgreSQL server hung ${PG_HANG} s mid-run (SIGSTOP)" pg_hang 12
want 16 && PG_WAIT=5s pg_row 16 "PostgreSQL server away past TUNELAB_DB_WAIT, then resume" pg_away 10 resume
want 17 && PG_AFTER=4 pg_row 17 "controller kill -9 after trial 4 (PostgreSQL), restore, resume" pg_kill 10 resume
if want 18; then
  if pg_up; then
    python3 "$ROOT/lab/pg-drop-commit" 0 "$PG_PORT" >"$WORK/proxy.out" 2>&1 &
    PG_PROXY=$!
    BG+=("$PG_PROXY")
    until grep -q listening "$WORK/proxy.out"; do sleep 0.1; done
    PROXY_PORT=$(sed -n 's/^listening //p' "$WORK/proxy.out")
    # the proxy's port is not in the password file: a copy that takes any port
    awk -F: 'NR == 1 { print $1 ":*:*:" $4 ":" $5 }' "$PGPASSFILE" >"$WORK/pgpass"
    chmod 600 "$WORK/pgpass"
    PG_SAVED_URL=$PG_URL
    PG_URL=${PG_URL/:$PG_PORT\//:$PROXY_PORT/}
    # the proxy reads the protocol in the clear: TLS, which the lab's server offers, is off
    PG_OPTIONS='?sslmode=disable'
    PGPASSFILE=$WORK/pgpass pg_row 18 "a COMMIT's answer lost (loopback proxy, PostgreSQL)" pg_lost_answer 10
    PG_URL=$PG_SAVED_URL
    PG_OPTIONS=
    kill "$PG_PROXY" 2>/dev/null
  else
    skip 18 "a COMMIT's answer lost" "skipped: lab/postgres did not start"
  fi
fi

# Row 19: a worker stopped (SIGSTOP) past its lease while another worker of its testbed, with an
# agent state of its own on the same hosts, takes the experiment over and finishes it; then the
# first goes on, finds its claim fenced off, restores its hosts and writes nothing more.
pg_fenced() {
  local n=19 name="worker stopped past its lease, another takes over (PostgreSQL queue)" trials=10
  local m=$WORK/pg19.yaml url db t0 a rc_a rc_b end
  if ! pg_up; then skip "$n" "$name" "skipped: lab/postgres did not start"; return; fi
  url=$(pg_db "$n") || { skip "$n" "$name" "skipped: no database"; return; }
  db=$(pg_name "$url")
  cat >"$m" <<EOF
name: pg-fault-19
matrix:
  local.block.$LOOP.read_ahead_kb: [1024, 2048]
repeat: $((trials / 2))
workload:
  command: sleep 1
EOF
  t0=$(now)
  tl submit "$m" --queue faults --db "$url" >"$WORK/pg19.out" 2>&1
  tl_bg worker --queue faults --testbed bed --lease 3s --db "$url" >"$WORK/pg19-a.out" 2>&1 &
  a=$!
  BG+=("$a")
  end=$(($(date +%s) + 120))
  until [ "$(pq "$db" "select count(*) from trials where status = 'ok'" 2>/dev/null || echo 0)" -ge 3 ]; do
    if [ "$(date +%s)" -ge "$end" ] || ! kill -0 "$a" 2>/dev/null; then break; fi
    sleep 0.1
  done
  kill -STOP "$a"
  end=$(($(date +%s) + 60))
  until [ "$(pq "$db" "select count(*) from queue where lease_until <
      (extract(epoch from clock_timestamp()) * 1000)::bigint")" = 1 ] ||
    [ "$(date +%s)" -ge "$end" ]; do sleep 0.2; done
  mkdir -p "$WORK/state-b"
  TUNELAB_STATE=$WORK/state-b TUNELAB_GRACE=2 java -jar "$JAR" worker --queue faults \
    --testbed bed --drain --db "$url" >"$WORK/pg19-b.out" 2>&1
  rc_b=$?
  kill -CONT "$a"
  wait "$a"
  rc_a=$?
  local lost dup knob left n_ok status state ok
  lost=$(pg_lost "$db") dup=$(pg_dup "$db")
  knob=$([ "$(ra "$LOOP")" = "$ORIG" ] && echo 0 || echo 1)
  left=$(($(left_after "$STATE" 10) + $(left_after "$WORK/state-b" 10)))
  n_ok=$(pq "$db" "select count(*) from trials where status = 'ok'")
  status=$(pq "$db" "select status from experiments")
  state=$(pq "$db" "select state from queue")
  ok=$([ "$lost$dup$knob$left" = 0000 ] && [ "$n_ok" = "$trials" ] && [ "$status" = finished ] &&
    [ "$state" = done ] && [ "$rc_b" = 0 ] && [ "$rc_a" = 3 ] &&
    grep -q "no longer this worker's" "$WORK/pg19-a.out" && echo 1 || echo 0)
  row "$n" "$name" "first worker stopped past its 3 s lease; second exit $rc_b, first fenced off (exit $rc_a); $n_ok of $trials trials ok, experiment $status, queue row $state" \
    "$lost" "$dup" "$knob" "$left" "$(since "$t0")" "$ok"
  [ "$ok" = 1 ] || tail -5 "$WORK/pg19-a.out" "$WORK/pg19-b.out" >&2
}
want 19 && pg_fenced

# ---------------------------------------------------------------------------------------------
echo
echo "bench/faults.sh $COUNT  (seed $SEED; $(date -u +%F); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg))"
printf '| # | fault | what happened | lost | dup | knobs | procs | time |\n'
printf '|---|-------|---------------|------|-----|-------|-------|------|\n'
for n in $(seq 1 19); do
  [ -n "${NAMES[$n]:-}" ] || continue
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "${NAMES[$n]}" "${DONE[$n]}" \
    "${LOST[$n]}" "${DUP[$n]}" "${KNOBS[$n]}" "${LEFT[$n]}" "${TIME[$n]}"
done
if [ "$BAD" -ne 0 ]; then
  echo "faults.sh: at least one row lost, duplicated or left something, or did not behave (output kept in $WORK)" >&2
  trap - EXIT
  cleanup_keep() { for p in "${BG[@]}"; do kill -KILL "$p" 2>/dev/null; done; [ -n "$MOUNTED" ] && umount -l "$MOUNTED"; tl restore >/dev/null 2>&1; losetup -d "/dev/$LOOP" 2>/dev/null; [ -n "$LAB_MINE" ] && { "$ROOT/lab/lab" down >/dev/null 2>&1 || "$ROOT/lab/lab" down --force >/dev/null 2>&1; }; [ -z "$VM_MINE" ] || "$ROOT/lab/vm" down >/dev/null 2>&1; [ -z "$PG_MINE" ] || "$ROOT/lab/postgres" down >/dev/null 2>&1; }
  cleanup_keep
  exit 1
fi
exit 0

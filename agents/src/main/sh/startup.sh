# shellcheck shell=sh
# ---------------------------------------------------------------------------
# The agent's start-up: who it runs as, where its state is, what the environment sets.
# A trial's leader has exited before this point and never reads it.

# Read by builtins: every agent process (a serve, a one-shot call)
# starts with these, and a fork costs milliseconds on a busy host. The effective uid,
# as `id -u` has it; boot_id reads whole even a byte at a time.
UID_NOW=
while IFS="$TAB " read -r id_key _ id_eff _; do
  case $id_key in
    Uid:)
      UID_NOW=$id_eff
      break
      ;;
  esac
done 2>/dev/null </proc/self/status
[ -n "$UID_NOW" ] || UID_NOW=$(id -u)
BOOT=
{ IFS= read -r BOOT </proc/sys/kernel/random/boot_id; } 2>/dev/null
[ -n "$BOOT" ] || BOOT=unknown

# Root's state lives on tmpfs: a reboot clears it, as the journal's boot-id rule assumes.
if [ -n "${TUNELAB_STATE:-}" ]; then
  STATE=${TUNELAB_STATE%/}
elif [ "$UID_NOW" = 0 ]; then
  STATE=/run/tunelab
elif [ -n "${HOME:-}" ]; then
  STATE=$HOME/.cache/tunelab/state
else
  STATE=/tmp/tunelab-agent-$UID_NOW
fi
JOURNAL=$STATE/journal
LOCK=$STATE/lock
JOBS_DIR=$STATE/jobs
# Per-process scratch: the current payload, response and staged values.
SCRATCH=$STATE/tmp.$$
PAYLOAD_FILE=$SCRATCH/payload
RESPONSE_FILE=$SCRATCH/response
# The shell running this script, to start helpers (trials, the reader) under the same one.
SELF_SH=/proc/$$/exe

# Test hook: one more directory whose files count as knobs. Only with an explicit
# TUNELAB_STATE, so a host's real agent never honours it by accident.
KNOB_ROOT=
if [ -n "${TUNELAB_STATE:-}" ] && [ -n "${TUNELAB_KNOB_ROOT:-}" ]; then
  KNOB_ROOT=$(readlink -f -- "$TUNELAB_KNOB_ROOT" 2>/dev/null) || KNOB_ROOT=
  case $KNOB_ROOT in
    /?*) ;;
    *)
      err "ignoring TUNELAB_KNOB_ROOT=$TUNELAB_KNOB_ROOT"
      KNOB_ROOT=
      ;;
  esac
fi

# KiB the state directory's file system must have free when a serve, apply or run starts
# (state_room): the lock and journal, and a trial's files and kept output (stream_keep).
STATE_MIN_FREE_KB=16384

# Seconds a serve waits after its input ended before it restores the journal itself.
GRACE=${TUNELAB_GRACE:-30}
case $GRACE in
  "" | . | *[!0-9.]* | *.*.*)
    err "ignoring TUNELAB_GRACE=$GRACE (want seconds); using 30"
    GRACE=30
    ;;
esac
LOCK_WAIT=${TUNELAB_LOCK_WAIT:-15}
case $LOCK_WAIT in
  "" | *[!0-9]*) LOCK_WAIT=15 ;;
esac
# What a trial's answer returns of a job's output: its whole stdout on request (fio's
# JSON, a monitor's rows) up to OUT_CAP lines, else the last TAIL_LINES lines.
OUT_CAP=100000
TAIL_LINES=200
# 1 when a response holds whole outputs: a serve relays it through sed, not line by line.
BULKY_RESPONSE=0
# The agent's working directory, where workloads run: resolve_paths leaves and returns.
AGENT_CWD=${PWD:-}
# The agent's own I/O class (`ionice -p`), and its "NICE<TAB>CPUS<TAB>IONICE", read at its
# first trial.
AGENT_IO=
AGENT_SCHED=
AGENT_IO_READ=0
# 1 once setsid and timeout were found on this host (trial_start).
AGENT_TOOLS_OK=0
# The request's payload lines, each ended by a newline, when PAYLOAD_OK is 1 (a serve keeps
# them as it reads them): dash's read builtin reads a file a byte at a time, and apply
# walks its payload once per step.
PAYLOAD=
PAYLOAD_OK=0
# JOURNAL_PATHS holds the journal's paths when JOURNAL_PATHS_OK is 1 (journal_load).
JOURNAL_PATHS=
JOURNAL_PATHS_OK=0
# Journal lines added and not yet written (journal_add, journal_sync).
JOURNAL_PENDING=
# 1 while $JOBS_DIR is this agent's, left by its last trial for the next (jobs_claim).
JOBS_KEPT=0
JOBS_FRESH=1
# The leader forked ahead for the next trial, and its start time (leader_fork).
LEADER_PID=
LEADER_START=
# 1 in a serve, whose next request may be a trial: each trial's leader is forked ahead.
LEADER_AHEAD=0
# 1 while the started trial takes health snapshots (trial_parse, trial_health).
TRIAL_HEALTH=0
TRIAL_CHECKS=
TRIAL_CURSOR=
TRIAL_END_NS=0
# The devices a trial's snapshots count (health_devs).
HEALTH_DEVS=" "

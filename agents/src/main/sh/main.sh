# shellcheck shell=sh
# ---------------------------------------------------------------------------
# The entry point: a verb per call, a serve, or one of the agent's own helpers. It must
# stay last: every function is defined by the time it runs.

dispatch() {
  case $1 in
    hello) verb_hello ;;
    facts) verb_facts ;;
    read) verb_read ;;
    list) verb_list ;;
    apply) verb_apply ;;
    restore) verb_restore ;;
    journal) verb_journal ;;
    run) verb_run ;;
    start) verb_start ;;
    go) verb_go ;;
    wait) verb_wait ;;
    stop) verb_stop ;;
    drop-caches) verb_drop_caches ;;
    sync) verb_sync ;;
    cancel) verb_cancel ;;
    health) verb_health ;;
    noise) verb_noise ;;
    *)
      err "unknown verb: $1"
      return 2
      ;;
  esac
}

one_shot() {
  EXPERIMENT=
  case $1 in
    start | go | wait | stop)
      # A started trial lives with the agent that started it: only a serve can go on.
      err "$1 is a serve verb (start, go, wait and stop belong to one agent process)"
      exit 2
      ;;
  esac
  case $1 in
    apply | run) prepare_state writes ;;
    *) prepare_state ;;
  esac
  case $1 in
    read | list | apply | run) cat >"$PAYLOAD_FILE" ;;
    restore | health) if [ -t 0 ]; then : >"$PAYLOAD_FILE"; else cat >"$PAYLOAD_FILE"; fi ;;
    *) : >"$PAYLOAD_FILE" ;;
  esac
  case $1 in
    apply | restore | run)
      # Killed by a signal, the EXIT trap still releases the lock and ends the trial.
      trap 'exit 129' HUP
      trap 'exit 130' INT
      trap 'exit 143' TERM
      lock_take "$1" || exit $?
      [ ! -s "$SCRATCH/ended" ] || cat "$SCRATCH/ended"
      ;;
  esac
  dispatch "$1" </dev/null
  exit $?
}

# Library mode, for tests: `set -- __library; . ./tunelab-agent.sh` defines every function
# and returns here, so that a test can call them one by one (AgentLibrary).
[ "${1:-}" != __library ] || return 0
case $1 in
  __reader)
    [ $# -eq 5 ] || exit 2
    reader_main "$2" "$3" "$4" "$5"
    ;;
  __end)
    [ $# -eq 3 ] || exit 2
    group_end "$2" "$3"
    exit 0
    ;;
esac
if [ $# -ne 1 ]; then
  err "usage: sh tunelab-agent.sh VERB|serve (see docs/agent.md)"
  exit 2
fi
case $1 in
  serve) serve ;;
  *) one_shot "$1" ;;
esac

# shellcheck shell=sh
# ---------------------------------------------------------------------------
# Journal: the original of every path before its first write (docs/agent.md, "State on
# the host").

# Discards a journal written during an earlier boot: the reboot reset its paths.
journal_drop_stale() {
  [ -f "$JOURNAL" ] || return 0
  jd_head=
  { IFS= read -r jd_head <"$JOURNAL"; } 2>/dev/null
  case $jd_head in
    "#boot$TAB$BOOT") return 0 ;;
  esac
  err "discarding $JOURNAL from another boot (${jd_head#*"$TAB"})"
  JOURNAL_PATHS_OK=0
  rm -f "$JOURNAL"
}

# Loads the journaled paths into JOURNAL_PATHS (newline-framed), so lookups cost no file reads.
journal_load() {
  # A serve holds the lock for its life: nobody else changes the journal, so what it read
  # stays true until it restores (or drops) the journal itself; journal_add keeps it.
  [ "$JOURNAL_PATHS_OK" = 0 ] || return 0
  JOURNAL_PATHS=$NL
  JOURNAL_PATHS_OK=1
  [ -f "$JOURNAL" ] || return 0
  while IFS= read -r jl_line || [ -n "$jl_line" ]; do
    case $jl_line in
      "#boot$TAB"* | "") ;;
      *"$TAB"*) JOURNAL_PATHS=$JOURNAL_PATHS${jl_line%%"$TAB"*}$NL ;;
    esac
  done <"$JOURNAL"
}

# True when $1 already has a line in the journal.
journal_has() {
  case $JOURNAL_PATHS in
    *"$NL$1$NL"*) return 0 ;;
  esac
  return 1
}

# Adds PATH<TAB>ORIGINAL to the lines journal_sync writes; the caller syncs once after all
# its additions, before its first write.
journal_add() {
  selected_entry "$2"
  JOURNAL_PENDING=$JOURNAL_PENDING$1$TAB$SELECTED$NL
  JOURNAL_PATHS=$JOURNAL_PATHS$1$NL
}

# Writes the pending lines into the journal and forces it to disk: the journal and them go to
# journal.new, which is synced and renamed over the journal, so the journal is always one
# that was written whole, never a line cut short by a full disk. Only the journal is synced:
# a global sync could take minutes on a host full of dirty pages in a writeback experiment.
# Status 1 with FAIL_REASON when it cannot be written (the journal then stays as it was,
# and so do the journaled paths).
journal_sync() {
  if [ -n "$JOURNAL_PENDING" ]; then
    if [ -f "$JOURNAL" ]; then
      cat -- "$JOURNAL" >"$JOURNAL.new" && printf '%s' "$JOURNAL_PENDING" >>"$JOURNAL.new"
    else
      printf '#boot\t%s\n%s' "$BOOT" "$JOURNAL_PENDING" >"$JOURNAL.new"
    fi 2>/dev/null && sync "$JOURNAL.new" 2>/dev/null && mv -f -- "$JOURNAL.new" "$JOURNAL"
    js_rc=$?
    JOURNAL_PENDING=
    if [ "$js_rc" != 0 ]; then
      rm -f -- "$JOURNAL.new"
      FAIL_REASON="cannot write $JOURNAL (is its file system full?)"
      err "$FAIL_REASON"
      JOURNAL_PATHS_OK=0
      journal_load
      return 1
    fi
  fi
  sync "$STATE" 2>/dev/null || sync
}

# Journals path $1 (read through its canonical form $2) unless it is journaled already
# or missing. Status 1 with FAIL_REASON when it cannot be read.
save_path() {
  [ -e "$2" ] || return 0
  journal_has "$1" && return 0
  UNSAVED_PATH=$1
  if ! get_value "$2" 2>"$SCRATCH/err"; then
    first_line "$SCRATCH/err"
    tidy_message "$FIRST_LINE" "unreadable"
    return 1
  fi
  journal_add "$1" "$VALUE"
  JOURNAL_UNSYNCED=1
}

# Journals whichever of an exclusive pair is active: A when it is non-zero (or B does
# not exist), else B. The kernel rejects 0 for *_bytes, so a zero A is never saved.
# Arguments: A, canonical A, B, canonical B.
save_pair() {
  journal_has "$1" && return 0
  journal_has "$3" && return 0
  sp_value=0
  if [ -e "$2" ]; then
    get_value "$2" 2>/dev/null && sp_value=$VALUE
  fi
  if [ -e "$2" ] && { [ "$sp_value" != 0 ] || [ ! -e "$4" ]; }; then
    save_path "$1" "$2"
  else
    save_path "$3" "$4"
  fi
}

# Journals the files a write to $1 (canonical $2) changes besides itself, so restore can
# put them back: a new scheduler resets nr_requests and iosched/* and may switch off
# writeback throttling (bfq); max_sectors_kb may reset read_ahead_kb. Only files the
# mode says are writable: a read-only one can neither change by our hand nor be restored.
save_side_effects() {
  sf_gdir=${1%/*}
  sf_rdir=${2%/*}
  sf_what=$2
  set --
  case $sf_what in
    */queue/scheduler)
      set -- "$sf_rdir/wbt_lat_usec" "$sf_rdir/nr_requests"
      if [ -d "$sf_rdir/iosched" ] && [ ! -h "$sf_rdir/iosched" ]; then
        for sf_file in "$sf_rdir"/iosched/*; do
          set -- "$@" "$sf_file"
        done
      fi
      ;;
    */queue/max_sectors_kb) set -- "$sf_rdir/read_ahead_kb" ;;
    *) return 0 ;;
  esac
  # Keep the regular files, never a symlink, not journaled yet (so a trial that writes
  # the same knobs again forks no stat): appended, then the candidates shifted off.
  sf_n=$#
  for sf_file in "$@"; do
    journal_has "$sf_gdir/${sf_file#"$sf_rdir"/}" && continue
    [ -f "$sf_file" ] && [ ! -h "$sf_file" ] && set -- "$@" "$sf_file"
  done
  shift "$sf_n"
  [ $# -gt 0 ] || return 0
  sf_modes=$(stat -c '%A' -- "$@" 2>/dev/null)$NL || sf_modes=
  for sf_file in "$@"; do
    sf_mode=${sf_modes%%"$NL"*}
    sf_modes=${sf_modes#*"$NL"}
    case $sf_mode in
      ?*w*) ;;
      *) continue ;;
    esac
    save_path "$sf_gdir/${sf_file#"$sf_rdir"/}" "$sf_file" || return $?
  done
}

# The other member of a kernel pair that excludes each other, when $1 (canonical) is one.
pair_partner() {
  case $1 in
    /proc/sys/vm/dirty_bytes) PAIR_PARTNER=dirty_ratio ;;
    /proc/sys/vm/dirty_ratio) PAIR_PARTNER=dirty_bytes ;;
    /proc/sys/vm/dirty_background_bytes) PAIR_PARTNER=dirty_background_ratio ;;
    /proc/sys/vm/dirty_background_ratio) PAIR_PARTNER=dirty_background_bytes ;;
    /proc/sys/vm/overcommit_kbytes) PAIR_PARTNER=overcommit_ratio ;;
    /proc/sys/vm/overcommit_ratio) PAIR_PARTNER=overcommit_kbytes ;;
    *) return 1 ;;
  esac
}

# Journals what a write to $1 (canonical $2) is about to change: the path itself, the
# active half of an exclusive pair it belongs to, and its side-effect files. Status as
# save_path.
journal_for_write() {
  case $SAVEPAIR_PATHS in
    *"$NL$1$TAB"* | *"$TAB$1$NL"*) return 0 ;; # a savepair line of this request covers it
  esac
  if pair_partner "$2"; then
    jw_gb=${1%/*}/$PAIR_PARTNER
    jw_rb=${2%/*}/$PAIR_PARTNER
    case $1 in
      *bytes) save_pair "$1" "$2" "$jw_gb" "$jw_rb" ;;
      *) save_pair "$jw_gb" "$jw_rb" "$1" "$2" ;;
    esac
    return $?
  fi
  save_path "$1" "$2" || return $?
  save_side_effects "$1" "$2"
}

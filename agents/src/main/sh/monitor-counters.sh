# shellcheck shell=sh
# ---------------------------------------------------------------------------
# A monitor's counters, read when its monitor starts and when the trial stops, so that
# every monitor gives a trial-wide figure however short the trial. The trial's leader
# calls these; they come before it, since its entry point ends its own module.

# Devices of /proc/diskstats an iostat monitor's counters keep at most (a bounded answer).
SNAP_DEVICE_CAP=256

# A monitor's counters (docs/agent.md, "A monitor's counters"), read by builtins: appends
# to $1/stat a "$2<TAB>$3" line ($2 begin or end, $3 ns), then for vmstat and mpstat the
# cpu line of /proc/stat, for iostat its devices' lines of /proc/diskstats (every whole
# device when it names none); tool and devices from its argv (the interval last).
monitor_snap() {
  mn_tool=
  mn_devs=' '
  mn_prev=
  while IFS= read -r mn_word || [ -n "$mn_word" ]; do
    case $mn_tool:$mn_word in
      :vmstat | :mpstat | :iostat | :*/vmstat | :*/mpstat | :*/iostat) mn_tool=${mn_word##*/} ;;
      iostat:*)
        case $mn_prev in
          "" | -*) ;;
          *) mn_devs="$mn_devs${mn_prev#/dev/} " ;;
        esac
        mn_prev=$mn_word
        ;;
    esac
  done <"$1/argv"
  [ -n "$mn_tool" ] || return 0
  {
    printf '%s\t%s\n' "$2" "$3"
    if [ "$mn_tool" = iostat ]; then
      mn_n=0
      while read -r mn_major mn_minor mn_name mn_rest; do
        case $mn_devs in
          " ") [ -d "/sys/block/$mn_name" ] || continue ;;
          *" $mn_name "*) ;;
          *) continue ;;
        esac
        [ "$mn_n" -lt "$SNAP_DEVICE_CAP" ] || break
        mn_n=$((mn_n + 1))
        printf '%s %s %s %s\n' "$mn_major" "$mn_minor" "$mn_name" "$mn_rest"
      done </proc/diskstats
    else
      first_line /proc/stat
      printf '%s\n' "$FIRST_LINE"
    fi
  } >>"$1/stat" 2>/dev/null
}

# Reads every monitor's counters ($1: begin or end), with one date for them all.
monitors_snap() {
  date +%s%N >"$JOBS_DIR/snap.ns"
  first_line "$JOBS_DIR/snap.ns"
  mo_ns=$FIRST_LINE
  mo_i=1
  while [ "$mo_i" -le "$MONITOR_COUNT" ]; do
    monitor_snap "$JOBS_DIR/m$mo_i" "$1" "$mo_ns"
    mo_i=$((mo_i + 1))
  done
}

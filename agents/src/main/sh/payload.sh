# shellcheck shell=sh
# ---------------------------------------------------------------------------
# A request's payload: read from "$PAYLOAD_FILE" once into PAYLOAD, its lines each ended
# by a newline (a serve keeps them as it reads them).

# Sets PAYLOAD to the payload's lines (from "$PAYLOAD_FILE") unless the serve loop did.
payload_load() {
  [ "$PAYLOAD_OK" = 0 ] || return 0
  PAYLOAD=
  while IFS= read -r pl_line || [ -n "$pl_line" ]; do
    PAYLOAD=$PAYLOAD$pl_line$NL
  done <"$PAYLOAD_FILE"
  PAYLOAD_OK=1
}

# Calls function $1 with each payload line, in order.
payload_each() {
  pe_all=$PAYLOAD
  while [ -n "$pe_all" ]; do
    pe_line=${pe_all%%"$NL"*}
    pe_all=${pe_all#*"$NL"}
    "$1" "$pe_line"
  done
}

# Sets LINE_PATHS to the paths that apply payload line $1 names, one per line; false for
# a line that names none.
line_paths() {
  lp_rest=${1#*"$TAB"}
  case $1 in
    "save$TAB"* | "check$TAB"*) LINE_PATHS=$lp_rest ;;
    "savepair$TAB"*) LINE_PATHS=${lp_rest%%"$TAB"*}$NL${lp_rest#*"$TAB"} ;;
    "set$TAB"*) LINE_PATHS=${lp_rest%%"$TAB"*} ;;
    *) return 1 ;;
  esac
}

# Resolves the absolute paths of the payload's lines ($1: read, whose lines are paths, or
# apply).
resolve_payload() {
  payload_load
  rs_kind=$1
  set --
  rs_all=$PAYLOAD
  while [ -n "$rs_all" ]; do
    rs_line=${rs_all%%"$NL"*}
    rs_all=${rs_all#*"$NL"}
    if [ "$rs_kind" = read ]; then
      rs_paths=$rs_line
    else
      line_paths "$rs_line" || continue
      rs_paths=$LINE_PATHS
    fi
    while [ -n "$rs_paths" ]; do
      rs_path=${rs_paths%%"$NL"*}
      case $rs_paths in
        *"$NL"*) rs_paths=${rs_paths#*"$NL"} ;;
        *) rs_paths= ;;
      esac
      case $rs_path in
        /*) set -- "$@" "$rs_path" ;;
      esac
    done
  done
  resolve_paths "$@"
}

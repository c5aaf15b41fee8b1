# shellcheck shell=sh
# ---------------------------------------------------------------------------
# Knob paths. Every path the agent reads, writes or journals for the controller is
# resolved and must stay in /sys, /proc/sys or /proc/fs.

# Resolves every argument with one readlink and keeps GIVEN<TAB>CANONICAL lines in
# RESOLVED_MAP. Fails when the answer does not line up with the arguments (a name with a
# newline).
resolve_paths() {
  RESOLVED_MAP=$NL
  [ $# -gt 0 ] || return 0
  # Builtins first: `cd -P` into a path's directory gives that directory's physical path,
  # the same readlink's; the last component is kept unless it is a symbolic link. Then
  # back to the agent's directory, where its workloads run. What this cannot resolve (a
  # missing directory, a link at the end, no way back) goes to one readlink.
  rp_n=$#
  rp_dirs=$NL
  for rp_given in "$@"; do
    rp_canon=
    case $rp_given in
      /*/*) rp_dir=${rp_given%/*} ;;
      *) rp_dir= ;;
    esac
    if [ -n "$rp_dir" ] && [ -n "$AGENT_CWD" ] && [ ! -h "$rp_given" ]; then
      case $rp_dirs in
        *"$NL$rp_dir$TAB"*)
          rp_phys=${rp_dirs#*"$NL$rp_dir$TAB"}
          rp_phys=${rp_phys%%"$NL"*}
          ;;
        *)
          rp_phys=
          if [ -d "$AGENT_CWD" ] && cd -P -- "$rp_dir" 2>/dev/null; then
            rp_phys=$PWD
            if ! cd -- "$AGENT_CWD" 2>/dev/null; then
              err "cannot return to $AGENT_CWD; resolving paths with readlink from now on"
              AGENT_CWD=
              rp_phys=
            fi
          fi
          rp_dirs=$rp_dirs$rp_dir$TAB$rp_phys$NL
          ;;
      esac
      [ -z "$rp_phys" ] || rp_canon=${rp_phys%/}/${rp_given##*/}
    fi
    if [ -n "$rp_canon" ]; then
      RESOLVED_MAP=$RESOLVED_MAP$rp_given$TAB$rp_canon$NL
    else
      set -- "$@" "$rp_given"
    fi
  done
  shift "$rp_n"
  [ $# -gt 0 ] || return 0
  rp_out=$(readlink -m -- "$@" 2>/dev/null) || return 1
  rp_rest=$rp_out$NL
  for rp_given in "$@"; do
    [ -n "$rp_rest" ] || return 1
    RESOLVED_MAP=$RESOLVED_MAP$rp_given$TAB${rp_rest%%"$NL"*}$NL
    rp_rest=${rp_rest#*"$NL"}
  done
  [ -z "$rp_rest" ]
}

# Sets RESOLVED_PATH to the canonical form of the given path $1 when it may be touched;
# otherwise sets FAIL_REASON and fails. RESOLVED_MAP must hold $1 (resolve_paths).
path_allowed() {
  RESOLVED_PATH=
  case $1 in
    /*) ;;
    *)
      FAIL_REASON="refused: not an absolute path"
      return 1
      ;;
  esac
  case $1/ in
    *//* | */./* | */../*)
      FAIL_REASON="refused: not a canonical path (//, . or ..)"
      return 1
      ;;
    /proc/[0-9]*/* | /proc/self/* | /proc/thread-self/*)
      FAIL_REASON="refused: a per-process /proc path"
      return 1
      ;;
  esac
  case $RESOLVED_MAP in
    *"$NL$1$TAB"*) ;;
    *)
      FAIL_REASON="refused: the path could not be resolved"
      return 1
      ;;
  esac
  # Line by line: dash takes ${RESOLVED_MAP#*"$NL$1$TAB"} in time quadratic in the map's length,
  # about a millisecond per lookup for ten knobs.
  pa_ifs=$IFS
  IFS=$NL
  set -f
  for pa_line in $RESOLVED_MAP; do
    case $pa_line in
      "$1$TAB"*)
        RESOLVED_PATH=${pa_line#"$1$TAB"}
        break
        ;;
    esac
  done
  set +f
  IFS=$pa_ifs
  case $RESOLVED_PATH in
    /sys/* | /proc/sys/* | /proc/fs/*) return 0 ;;
  esac
  if [ -n "$KNOB_ROOT" ]; then
    case $RESOLVED_PATH in
      "$KNOB_ROOT"/*) return 0 ;;
    esac
  fi
  FAIL_REASON="refused: resolves to $RESOLVED_PATH, outside /sys, /proc/sys and /proc/fs"
  RESOLVED_PATH=
  return 1
}

# shellcheck shell=sh
# ---------------------------------------------------------------------------
# Values: knob files read and written as the wire format has them.

# Sets VALUE to the file's contents on one line (lines joined with spaces). cat, not the
# read builtin: dash reads a byte at a time, and /proc/sys answers a read at a non-zero
# offset with end of file, so `read` would see "2" in a dirty_ratio of 20.
get_value() {
  VALUE=$(cat "$1") || return 1
  case $VALUE in
    *"$NL"*) VALUE=$(printf '%s' "$VALUE" | tr '\n' ' ') ;;
  esac
  return 0
}

# Sets VALUES to the values of the files given as arguments, one line each in their
# order, each as get_value has it (empty when unreadable): all read by one awk instead of
# a cat per file, since a fork costs more than the reads. awk's getline reads from offset
# 0 in large blocks, as cat does, so /proc/sys files read whole.
get_values() {
  VALUES=
  [ $# -gt 0 ] || return 0
  # sysfs serves every read of an open file from the text it made at the first, so the
  # read builtin, a byte at a time, reads its files whole, and forks nothing. /proc/sys
  # does not (see get_value): a request with such a path goes to awk.
  for gv_file in "$@"; do
    case $gv_file in
      /sys/*) ;;
      *) gv_file= && break ;;
    esac
  done
  if [ -n "$gv_file" ]; then
    for gv_file in "$@"; do
      gv_v=
      gv_d=
      gv_k=0
      if ! {
        while IFS= read -r gv_line || [ -n "$gv_line" ]; do
          gv_k=$((gv_k + 1))
          gv_sep=
          [ "$gv_k" = 1 ] || gv_sep=' '
          if [ -z "$gv_line" ]; then
            gv_d=$gv_d$gv_sep
            continue
          fi
          gv_v=$gv_v$gv_d$gv_sep$gv_line
          gv_d=
        done <"$gv_file"
      } 2>/dev/null; then
        err "cannot read $gv_file"
        gv_v=
      fi
      VALUES=$VALUES=$gv_v$NL
    done
    VALUES=${VALUES%"$NL"}
    return 0
  fi
  if VALUES=$(awk 'BEGIN {
      for (i = 1; i < ARGC; i++) {
        v = ""; k = 0; d = ""
        # Lines joined with spaces, trailing empty lines dropped, as $(cat) | tr has it.
        while ((r = (getline line < ARGV[i])) > 0) {
          k++
          if (line == "") { d = d (k > 1 ? " " : ""); continue }
          v = v d (k > 1 ? " " : "") line; d = ""
        }
        if (r < 0) { printf "tunelab-agent: cannot read %s\n", ARGV[i] > "/dev/stderr"; v = "" }
        close(ARGV[i])
        print "=" v
      }
    }' "$@"); then
    return 0
  fi
  # No awk to be had: one cat per file.
  VALUES=
  for gv_file in "$@"; do
    get_value "$gv_file" || VALUE=
    VALUES=$VALUES=$VALUE$NL
  done
  VALUES=${VALUES%"$NL"}
}

# Sets FAIL_REASON to the shell's error text without its "script: LINE:" prefix.
tidy_message() {
  FAIL_REASON=$(printf '%s\n' "$1" |
    sed -e 's/^[^:]*: \(line \)\{0,1\}[0-9][0-9]*: //' | tr '\n' ' ')
  FAIL_REASON=${FAIL_REASON% }
  [ -n "$FAIL_REASON" ] || FAIL_REASON=$2
}

# Writes $2 (plus a newline) to the existing file $1 in a single write(2); on failure
# sets FAIL_REASON. cat rather than printf does the write because dash's printf reports every
# write error as "I/O error", hiding the kernel's EINVAL/EBUSY.
put_value() {
  if [ ! -e "$1" ]; then
    FAIL_REASON="no such file or directory"
    return 1
  fi
  # The builtin write costs no fork; only when it fails is the write repeated with cat,
  # whose message carries the kernel's reason (a refused write changes nothing).
  if { printf '%s\n' "$2" >"$1"; } 2>/dev/null; then
    return 0
  fi
  if ! printf '%s\n' "$2" 2>/dev/null >"$SCRATCH/value"; then
    FAIL_REASON="cannot stage the value in $SCRATCH"
    return 1
  fi
  if FAIL_REASON=$({ cat "$SCRATCH/value" >"$1"; } 2>&1); then
    return 0
  fi
  tidy_message "$FAIL_REASON" "write failed"
  return 1
}

# Sets SELECTED to the writable form of a value: the selected entry of a sysfs choice
# list ("[none] mq-deadline kyber" -> "none"), otherwise the value itself.
selected_entry() {
  SELECTED=$1
  case $1 in
    *"["*"]"*)
      SELECTED=$(printf '%s\n' "$1" |
        sed -n 's/^\(.* \)\{0,1\}\[\([^] []\{1,\}\)\]\( .*\)\{0,1\}$/\2/p')
      [ -n "$SELECTED" ] || SELECTED=$1
      ;;
  esac
}

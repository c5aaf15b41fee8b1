#!/bin/sh
# Installs this unpacked release archive as PREFIX/tunelab/VERSION (default PREFIX /opt), points
# PREFIX/tunelab/current at it and links BIN/tunelab (default /usr/local/bin) to
# PREFIX/tunelab/current/bin/tunelab. Upgrading is installing the next version; the previous one
# stays, and running its install.sh goes back to it. Each link is switched in one rename, so a
# command started meanwhile finds the old version or the new one, never neither.
set -eu

usage="usage: install.sh [--bin DIR] [PREFIX]   (defaults: --bin /usr/local/bin, PREFIX /opt)"
usage() {
  echo "$usage" >&2
  exit 2
}

bin=/usr/local/bin
prefix=/opt
while [ $# -gt 0 ]; do
  case $1 in
    --bin) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
    -h | --help) echo "$usage"; exit 0 ;;
    -*) usage ;;
    *) [ $# -eq 1 ] || usage; prefix=$1; shift ;;
  esac
done

src=$(cd "$(dirname "$0")" && pwd -P)
# The launcher says which version this is, and that a Java runtime is there to run it.
version=$("$src/bin/tunelab" --version) || exit
version=${version#tunelab }
case $version in
  '' | *[!A-Za-z0-9._+-]*) echo "install.sh: unexpected version '$version'" >&2; exit 4 ;;
esac

mkdir -p "$prefix/tunelab" "$bin"
home=$(cd "$prefix/tunelab" && pwd -P)
bin=$(cd "$bin" && pwd -P)
dest=$home/$version
link=$bin/tunelab
if [ -e "$link" ] && [ ! -L "$link" ]; then
  echo "install.sh: $link exists and is not a symbolic link; not replacing it" >&2
  exit 3
fi

# Running an installed version's own install.sh only switches the links back to it.
if [ "$src" != "$dest" ]; then
  tmp=$home/.$version.new.$$
  old=$home/.$version.old.$$
  trap 'rm -rf "$tmp" "$old"' EXIT
  cp -R "$src" "$tmp"
  if [ -e "$dest" ]; then
    mv "$dest" "$old"
  fi
  mv "$tmp" "$dest"
fi

ln -sfn "$version" "$home/.current.$$"
mv -fT "$home/.current.$$" "$home/current"

ln -sfn "$home/current/bin/tunelab" "$bin/.tunelab.$$"
mv -fT "$bin/.tunelab.$$" "$link"

echo "tunelab $version in $dest; $home/current -> $version; $link -> $home/current/bin/tunelab"

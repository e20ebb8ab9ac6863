#!/bin/sh
# Run inside a Debian root filesystem by scripts/lib/standins.mjs (debianRootfs's `keepOnly`): packs
# into the tarball OUT the files of the named installed packages, and the absolute paths given beside
# them (files no package owns, such as /etc/passwd, which maintainer scripts write), so a stand-in
# holds those packages alone, without the dpkg, apt, perl or shell that installing them needed.
# Files the build left out (docs, man pages, locales) are still listed by dpkg, and skipped. Each path
# is taken through its real folder, since dpkg lists /lib/… where merged /usr keeps /usr/lib/…; /bin,
# /sbin, /lib and /lib64 come along as the links they are.
# Usage: sh pick-packages.sh OUT.tar PACKAGE|/PATH…
set -eu
out=$1
shift
packages=
picked=$(mktemp)
printf '%s\n' bin sbin lib lib64 >"$picked"
for arg in "$@"; do
  case "$arg" in
    /*) printf '%s\n' "${arg#/}" >>"$picked" ;;
    *) packages="$packages $arg" ;;
  esac
done

# No pipes: with one, a package that is not installed or a failed step would leave files out silently.
listed=$(mktemp)
# shellcheck disable=SC2086 # one argument per package
dpkg-query --listfiles $packages >"$listed"
while read -r path; do
  case "$path" in
    / | /.) continue ;;
    /*) ;;
    *) continue ;; # dpkg's notes on diverted files
  esac
  real=$(readlink -m "$(dirname "$path")")
  real="${real%/}/$(basename "$path")"
  if [ -e "$real" ] || [ -L "$real" ]; then printf '%s\n' "${real#/}" >>"$picked"; fi
done <"$listed"
sort -u -o "$picked" "$picked"
tar --create --file="$out" --directory=/ --no-recursion --verbatim-files-from --files-from="$picked"
rm -f "$listed" "$picked"

#!/bin/sh
# As the official node image: `docker run image -e '1+1'` or `docker run image app.js` runs node with
# those arguments; a command that exists (sh, npm, …) runs as given.
set -e
first="${1:-}"
case "$first" in
  -*) set -- node "$@" ;;
  *)
    if ! command -v "$first" >/dev/null 2>&1 || { [ -f "$first" ] && [ ! -x "$first" ]; }; then
      set -- node "$@"
    fi
    ;;
esac
exec "$@"

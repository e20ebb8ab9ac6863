#!/bin/sh
# Entrypoint of the nginx stand-in, with the official image's contract: when the command is nginx
# (or nginx-debug), first run the configuration steps in /docker-entrypoint.d/ in version order:
# executable *.envsh files are sourced (they may export variables for nginx), executable *.sh
# files are run; anything else is skipped with a note. NGINX_ENTRYPOINT_QUIET_LOGS silences the notes.
set -e

note() {
  [ -n "${NGINX_ENTRYPOINT_QUIET_LOGS:-}" ] || echo "$0: $*"
}

steps=/docker-entrypoint.d
case "${1:-}" in
  nginx | nginx-debug)
    if [ -z "$(find "$steps" -mindepth 1 -maxdepth 1 -type f 2>/dev/null | head -n 1)" ]; then
      note "nothing in $steps/, starting nginx as configured"
    else
      # A here-document, not a pipe, so sourced *.envsh files change this shell's environment.
      list=$(find "$steps" -follow -type f | sort -V)
      while read -r step; do
        [ -n "$step" ] || continue
        case "$step" in
          *.envsh | *.sh)
            if [ ! -x "$step" ]; then
              note "skipping $step: not executable"
            elif [ "${step%.envsh}" != "$step" ]; then
              note "sourcing $step"
              . "$step"
            else
              note "running $step"
              "$step"
            fi
            ;;
          *) note "skipping $step: neither *.sh nor *.envsh" ;;
        esac
      done <<STEPS
$list
STEPS
      note "configuration done, starting nginx"
    fi
    ;;
esac

exec "$@"

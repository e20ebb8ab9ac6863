#!/bin/sh
# Entrypoint of the redis stand-in, keeping the official image's contract:
# - `docker run image --appendonly yes` or `docker run image /path/redis.conf` runs redis-server;
# - redis-server runs as the redis user, owning the files it finds in /data (a fresh volume is root's);
# - without a config file Redis listens on all interfaces, and protected mode is off, as the
#   official image builds it: other containers reach it without a password. An explicit
#   --protected-mode argument wins.
set -e

case "${1:-}" in
  -* | *.conf) set -- redis-server "$@" ;;
esac

if [ "${1:-}" = 'redis-server' ]; then
  if [ "$(id -u)" = 0 ]; then
    find . \! -user redis -exec chown redis '{}' +
    exec setpriv --reuid=redis --regid=redis --init-groups "$0" "$@"
  fi
  if ! printf '%s\n' "$@" | grep -q -- '^--protected-mode'; then
    shift
    # Options after the config file, so that arguments given later still override it.
    if [ -n "${1:-}" ] && [ "${1#-}" = "$1" ]; then
      config="$1"
      shift
      set -- redis-server "$config" --protected-mode no "$@"
    else
      set -- redis-server --protected-mode no "$@"
    fi
  fi
  # As the official image: files Redis creates are its own alone.
  umask 0077
fi

exec "$@"

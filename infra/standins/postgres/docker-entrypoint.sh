#!/bin/bash
# Entrypoint of the postgres stand-in, keeping the official image's contract:
# - an empty $PGDATA is initialised on first start: POSTGRES_USER (default postgres) becomes the
#   superuser with POSTGRES_PASSWORD, POSTGRES_DB (default: the user's name) is created, then
#   *.sh, *.sql and *.sql.gz in /docker-entrypoint-initdb.d run, on a temporary server that
#   listens on the Unix socket only (so nothing outside sees it ready before it is);
# - clients from other hosts authenticate with a password (POSTGRES_HOST_AUTH_METHOD, default
#   the server's password_encryption, scram-sha-256);
# - the server then runs in the foreground as the postgres user, listening on all interfaces.
# Each start of the server logs "database system is ready to accept connections", so a fresh
# container logs it twice (temporary server, then the real one), as the official image does.
set -Eeo pipefail

# `docker run image -c shared_buffers=…` passes options to postgres.
if [ "${1:0:1}" = '-' ]; then
  set -- postgres "$@"
fi

say() { echo "$(date -u '+%Y-%m-%d %H:%M:%S.%3N UTC') [entrypoint] $*"; }

run_sql() {
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --no-psqlrc "$@"
}

initialise() {
  if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "${POSTGRES_HOST_AUTH_METHOD:-}" != 'trust' ]; then
    cat >&2 <<'TEXT'
Error: the database is uninitialized and no superuser password is given.
       Set POSTGRES_PASSWORD (or, for a throwaway database only, POSTGRES_HOST_AUTH_METHOD=trust).
TEXT
    exit 1
  fi
  # shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a list of options, split on purpose.
  initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "${POSTGRES_PASSWORD:-}") ${POSTGRES_INITDB_ARGS:-} -D "$PGDATA"

  # The socket where Debian's psql and pg_isready look (and the official image has it), not the npm
  # build's /tmp: initdb writes its compiled-in default over the sample's, so it is set after.
  printf "\nunix_socket_directories = '/var/run/postgresql'\n" >> "$PGDATA/postgresql.conf"

  local method="${POSTGRES_HOST_AUTH_METHOD:-$(postgres -C password_encryption -D "$PGDATA")}"
  printf '\nhost all all all %s\n' "$method" >> "$PGDATA/pg_hba.conf"

  # Unix socket only: a TCP client (a healthcheck, a test) must not reach the half-made database.
  PGUSER="$POSTGRES_USER" pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p ${PGPORT:-5432}" -w start

  if [ "$POSTGRES_DB" != 'postgres' ]; then
    local exists
    exists=$(run_sql --dbname postgres --tuples-only --set db="$POSTGRES_DB" <<<"SELECT 1 FROM pg_database WHERE datname = :'db';")
    if [ -z "${exists// /}" ]; then
      run_sql --dbname postgres --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
    fi
  fi

  local file
  for file in /docker-entrypoint-initdb.d/*; do
    case "$file" in
      *.sh) say "running $file"; if [ -x "$file" ]; then "$file"; else . "$file"; fi ;;
      *.sql) say "running $file"; run_sql --dbname "$POSTGRES_DB" -f "$file" ;;
      *.sql.gz) say "running $file"; gunzip -c "$file" | run_sql --dbname "$POSTGRES_DB" ;;
      */\*) ;;
      *) say "ignoring $file" ;;
    esac
  done

  pg_ctl -D "$PGDATA" -m fast -w stop
  say 'PostgreSQL init process complete; ready for start up.'
}

if [ "$1" = 'postgres' ] && ! printf '%s\n' "$@" | grep -qE '^(-C|--describe-config|-V|--version|--help|-\?)$'; then
  export POSTGRES_USER="${POSTGRES_USER:-postgres}"
  export POSTGRES_DB="${POSTGRES_DB:-$POSTGRES_USER}"
  if [ "$(id -u)" = 0 ]; then
    # As root: make the folders the postgres user needs (a fresh volume is root's), then run as it.
    mkdir -p "$PGDATA" /var/run/postgresql
    chown postgres:postgres "$PGDATA" /var/run/postgresql
    chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "${BASH_SOURCE[0]}" "$@"
  fi
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    initialise
  else
    say 'PostgreSQL Database directory appears to contain a database; Skipping initialization'
  fi
fi

exec "$@"

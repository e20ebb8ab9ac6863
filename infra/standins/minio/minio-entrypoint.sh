#!/bin/sh
# As the official minio image: arguments are minio's (`server /data …`), unless the first is minio.
set -e
if [ -n "${1:-}" ] && [ "$1" != 'minio' ]; then
  set -- minio "$@"
fi
exec "$@"

#!/bin/sh
# `npm ci` with the given flags: from the registry, or offline from the cache the build context
# brought (/npm-offline/_cacache, see the Dockerfile's head) when there is one.
set -eu
if [ -d /npm-offline/_cacache ]; then
  exec npm ci --offline --cache /npm-offline "$@"
fi
exec npm ci "$@"

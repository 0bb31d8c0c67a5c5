#!/bin/sh
# node_modules/.bin/litestream: the Litestream binary npm installed (@flydotio/litestream-linux-x64).
# `exec` replaces this shell with Litestream, so signals reach it and its exit status is the caller's.
here=$(dirname "$0")
for bin in "$here/../@flydotio/litestream-linux-x64/litestream" "$here/../../node_modules/@flydotio/litestream-linux-x64/litestream"; do
  if [ -x "$bin" ]; then exec "$bin" "$@"; fi
done
echo "litestream: npm's @flydotio/litestream-linux-x64 is not installed beside $here (it ships Linux x64 only); see docs/replication.md" >&2
exit 127

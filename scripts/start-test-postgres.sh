#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Starts a throwaway PostgreSQL server on loopback for the store tests and prints its URL.
# Usage: export STRUCTSCOPE_TEST_PG=$(scripts/start-test-postgres.sh)
set -euo pipefail

port=${STRUCTSCOPE_PG_PORT:-54329}
dir=${STRUCTSCOPE_PG_DIR:-/tmp/structscope-test-pg}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ]; then
    echo "PostgreSQL server binaries not found (install the postgresql package)" >&2
    exit 1
fi
as_postgres() {
    if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi
}
url="postgresql://structscope:structscope@127.0.0.1:${port}/structscope_test"

if ! "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then
    rm -rf "$dir"
    mkdir -p "$dir"
    chown postgres "$dir" 2>/dev/null || true
    as_postgres "$bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1
    as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off" start >/dev/null
fi
as_postgres "$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 >/dev/null <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'structscope') THEN
    CREATE ROLE structscope LOGIN PASSWORD 'structscope';
  END IF;
END \$\$;
SQL
if ! as_postgres "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = 'structscope_test'" | grep -q 1; then
    as_postgres "$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
        -c "CREATE DATABASE structscope_test OWNER structscope" >/dev/null
fi
echo "$url"

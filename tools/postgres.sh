#!/usr/bin/env bash
# A throwaway PostgreSQL 15 + pgvector for the PostgreSQL test run (.ci/run), the two-instance test and benchmarks.
#   eval "$(tools/postgres.sh start)"   # installs what is missing, starts a cluster, exports DATABASE_URL and PG_TMP
#   tools/postgres.sh stop "$PG_TMP"     # stops it and removes its files
# Installs Debian's packages (postgresql-15, postgresql-server-dev-15, build-essential) when missing and builds
# pgvector from vendor/pgvector-0.8.6.tar.gz (Debian 12 has no pgvector package); nothing else is downloaded.
# The cluster listens on 127.0.0.1 only, on a free port, with trust authentication and no durability (fsync off):
# local tests only. Progress goes to stderr; stdout is only the export line.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PGVECTOR=0.8.6
BIN=/usr/lib/postgresql/15/bin

# As root the cluster runs as the `postgres` user the Debian package creates (initdb refuses root); otherwise as us.
as_owner() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "cd / && $1"; else sh -c "$1"; fi
}

installed() {
  [ -x "$BIN/initdb" ] && [ -x "$BIN/pg_config" ] && [ -f "$("$BIN/pg_config" --includedir-server)/postgres.h" ] &&
    command -v make >/dev/null && command -v cc >/dev/null
}

case "${1:-}" in
start)
  if ! installed; then
    echo "installing PostgreSQL 15 from Debian's packages" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 postgresql-server-dev-15 build-essential) >&2
  fi
  ext="$("$BIN/pg_config" --sharedir)/extension/vector--$PGVECTOR.sql"
  if [ ! -f "$ext" ] || [ ! -f "$("$BIN/pg_config" --pkglibdir)/vector.so" ]; then
    # One build at a time on this machine: another checkout may be installing the same files.
    exec 9>/tmp/partner-api-pgvector-build.lock
    flock 9
    if [ ! -f "$ext" ] || [ ! -f "$("$BIN/pg_config" --pkglibdir)/vector.so" ]; then
      echo "building pgvector $PGVECTOR from vendor/" >&2
      b=$(mktemp -d)
      tar xzf "$here/../vendor/pgvector-$PGVECTOR.tar.gz" -C "$b"
      (cd "$b/pgvector-$PGVECTOR" && make -s -j"$(nproc)" PG_CONFIG="$BIN/pg_config" OPTFLAGS="" && make -s install PG_CONFIG="$BIN/pg_config") >&2
      rm -rf "$b"
    fi
    exec 9>&-
  fi
  tmp=$(mktemp -d -t partner-api-pg.XXXXXX)
  chmod 755 "$tmp"
  [ "$(id -u)" = 0 ] && chown postgres "$tmp"
  port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  # Tests open many short-lived databases and pools (each test file's app holds up to 10 connections).
  opts="-p $port -k $tmp -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  as_owner "$BIN/initdb -D $tmp/data -A trust -U postgres -E UTF8 >/dev/null && $BIN/pg_ctl -D $tmp/data -w -l $tmp/log -o '$opts' start >/dev/null"
  as_owner "$BIN/psql -h 127.0.0.1 -p $port -U postgres -d postgres -qc 'create database partner_api' >/dev/null"
  echo "export DATABASE_URL=postgres://postgres@127.0.0.1:$port/partner_api PG_TMP=$tmp"
  ;;
stop)
  tmp=${2:?usage: postgres.sh stop PG_TMP}
  case "$(basename "$tmp")" in partner-api-pg.*) ;; *) echo "not a folder of postgres.sh start: $tmp" >&2; exit 2 ;; esac
  [ -d "$tmp/data" ] && { as_owner "$BIN/pg_ctl -D $tmp/data -m fast stop >/dev/null" || true; }
  rm -rf "$tmp"
  ;;
*)
  echo "usage: tools/postgres.sh start | stop PG_TMP" >&2
  exit 2
  ;;
esac

#!/usr/bin/env bash
# Debian's PostgreSQL for the web table's database tests (tests/test_web_server.py, the
# PostgreSQL test): installed if missing, its cluster started if down, and a role and database
# for the tests (parlour / parlour, database parlour_test on 127.0.0.1:5432) created once.
# Quick and silent when all of that is already so.
set -euo pipefail
source "$(dirname "$0")/apt.sh"

ROLE=parlour
DATABASE=parlour_test

if ! command -v pg_lsclusters >/dev/null 2>&1 || [ -z "$(pg_lsclusters -h 2>/dev/null)" ]; then
    apt_install install-postgresql.sh postgresql
fi

# The first cluster (Debian creates one with the package), started if it is down.
read -r version cluster port status _ < <(pg_lsclusters -h | head -n 1)
if [ "$status" != "online" ]; then
    $SUDO pg_ctlcluster "$version" "$cluster" start
fi

as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then
        su postgres -c "$1"
    else
        sudo -u postgres sh -c "$1"
    fi
}

psql_cmd="psql -p $port -qtAX"
if [ "$(as_postgres "$psql_cmd -c \"SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'\"")" != "1" ]; then
    as_postgres "$psql_cmd -c \"CREATE ROLE $ROLE LOGIN PASSWORD '$ROLE'\""
fi
if [ "$(as_postgres "$psql_cmd -c \"SELECT 1 FROM pg_database WHERE datname = '$DATABASE'\"")" != "1" ]; then
    as_postgres "$psql_cmd -c \"CREATE DATABASE $DATABASE OWNER $ROLE\""
fi

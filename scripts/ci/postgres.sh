#!/usr/bin/env bash
# CI: the PostgreSQL store (SPEC §9). Installs PostgreSQL 15 + pgvector (postgres-install.sh), then runs
# the PostgreSQL store's own tests, engram migrate-store's and the multi-node tests (3 real nodes on one database); each run starts a throwaway server of its own (scripts/postgres-server.ts).
# Skips, saying why, only when PostgreSQL cannot be installed at all.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
if ! scripts/ci/postgres-install.sh; then
  echo "postgres: skipped: PostgreSQL 15 + pgvector could not be installed on this machine"
  exit 0
fi
bun test test/store/postgres test/store/transfer test/nodes
echo "postgres: done in $(($(date +%s) - start)) s"

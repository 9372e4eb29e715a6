#!/usr/bin/env bash
# CI: the PostgreSQL store (SPEC §9). Installs PostgreSQL 15 + pgvector (postgres-install.sh), runs the
# PostgreSQL store's own tests, engram migrate-store's and the multi-node tests (3 real nodes on one
# database), then the same HTTP, MCP, governance, sessions, graph, layer, organization and shared-space suites the SQLite run uses, on
# PostgreSQL (ENGRAM_TEST_STORE=postgres: test/support/app.ts gives each test app a fresh schema). Each
# `bun test` run starts a throwaway server of its own (scripts/postgres-server.ts).
# Skips, saying why, only when PostgreSQL cannot be installed at all.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
if ! scripts/ci/postgres-install.sh; then
  echo "postgres: skipped: PostgreSQL 15 + pgvector could not be installed on this machine"
  exit 0
fi
bun test test/store/postgres test/store/transfer test/nodes
ENGRAM_TEST_STORE=postgres bun test test/identity test/http test/mcp test/governance test/sessions test/graph test/organizations test/spaces
echo "postgres: done in $(($(date +%s) - start)) s"

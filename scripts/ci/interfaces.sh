#!/usr/bin/env bash
# CI: the standard interfaces, checked by their ecosystems' own tools (issue 16). Installs Chromium (the
# API page's browser test) and Prometheus's promtool with apt when missing, then runs interfaces.ts on the
# built binary (from source when dist/engram is absent) and the browser test, which cannot skip here.
set -euo pipefail
cd "$(dirname "$0")/../.."
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v promtool >/dev/null || need+=(prometheus)
if ((${#need[@]})); then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
bun scripts/ci/interfaces.ts
bun test test/http/api-page.test.ts

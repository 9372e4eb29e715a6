#!/usr/bin/env bash
# CI: the binary of every platform (SPEC §10). Builds all five (timed) with dist/SHA256SUMS, checks each
# artifact's format, architecture and embedded native files, then runs what can run on Linux x64:
# linux-x64 natively, linux-arm64 under qemu user emulation, windows-x64 under Wine (smoke test each:
# version, serve, /health, a search found by paraphrase, clean stop). Darwin binaries are checked statically only.
# Then source installs as macOS and Windows get them, run here.
set -euo pipefail
cd "$(dirname "$0")/../.."
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
need=()
command -v file >/dev/null || need+=(file)
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
[ -e /usr/aarch64-linux-gnu/lib/libc.so.6 ] || need+=(libc6-arm64-cross)
[ -e /usr/aarch64-linux-gnu/lib/libstdc++.so.6 ] || need+=(libstdc++6-arm64-cross)
[ -x /usr/lib/wine/wine64 ] || command -v wine64 >/dev/null || need+=(wine64)
# Wine 8 (Debian 12) lacks bcryptprimitives.dll, which Bun imports: the smoke builds a stand-in with MinGW.
[ -e /usr/lib/x86_64-linux-gnu/wine/x86_64-windows/bcryptprimitives.dll ] || command -v x86_64-w64-mingw32-gcc >/dev/null ||
  need+=(gcc-mingw-w64-x86-64)
if ((${#need[@]})); then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
start=$(date +%s)
bun run build --all
echo "built all five binaries in $(($(date +%s) - start)) s"
(cd dist && sha256sum -c SHA256SUMS)
bun scripts/check-artifacts.ts
timeout 900 bun scripts/smoke-platforms.ts
# From source as macOS and Windows install it (their optional packages, not this machine's): past module
# resolution, on the portable vector index (no sqlite-vec for linux-x64 in node_modules), search by paraphrase.
bun scripts/ci/simulated-install.ts --os=darwin --cpu=arm64
bun scripts/ci/simulated-install.ts --os=win32 --cpu=x64

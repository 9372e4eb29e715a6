#!/usr/bin/env bash
# Installs PostgreSQL 15 and the pgvector extension for the PostgreSQL store's tests (idempotent; a
# no-op when both are there). pgvector is not packaged for Debian 12: Debian's own source package (from
# trixie, through a private apt configuration so the system's sources stay untouched) is built against
# postgresql-server-dev-15 pinned to the installed server's version. Nothing of pgvector enters the repository.
# Usage: scripts/ci/postgres-install.sh   (exit 0 when installed; exit 1 with the reason when it cannot be)
set -euo pipefail
PG=15
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
bindir=/usr/lib/postgresql/$PG/bin
if [ ! -x "$bindir/postgres" ]; then
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "postgresql-$PG" >/dev/null
fi
if [ -e "/usr/share/postgresql/$PG/extension/vector.control" ]; then
  echo "postgres-install: PostgreSQL $PG and pgvector are installed"
  exit 0
fi
start=$(date +%s)
version=$(dpkg-query -W -f='${Version}' "postgresql-$PG")
need=()
[ "$(dpkg-query -W -f='${Version}' "postgresql-server-dev-$PG" 2>/dev/null || true)" = "$version" ] ||
  need+=("postgresql-server-dev-$PG=$version")
command -v make >/dev/null || need+=(make)
command -v gcc >/dev/null || need+=(gcc)
command -v dpkg-source >/dev/null || need+=(dpkg-dev)
[ -e /usr/share/keyrings/debian-archive-keyring.gpg ] || need+=(debian-archive-keyring)
if ((${#need[@]})); then
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
  >"$work/sources.list"
cat >"$work/apt.conf" <<EOF
Dir::Etc::SourceList "$work/sources.list";
Dir::Etc::SourceParts "/nonexistent";
Dir::State::Lists "$work/lists";
Dir::Cache "$work/cache";
APT::Sandbox::User "$(id -un)";
EOF
export APT_CONFIG="$work/apt.conf"
apt-get update -qq
(cd "$work" && apt-get source -qq --download-only pgvector >/dev/null && dpkg-source -x pgvector_*.dsc src >/dev/null)
make -s -C "$work/src" PG_CONFIG="$bindir/pg_config" >/dev/null
$SUDO make -s -C "$work/src" PG_CONFIG="$bindir/pg_config" install >/dev/null
echo "postgres-install: built pgvector from Debian's source package in $(($(date +%s) - start)) s"

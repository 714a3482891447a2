#!/usr/bin/env bash
# The notification receiver's whole test suite against SQLite and a real PostgreSQL server:
# installs PostgreSQL (and SQLite's headers) from Debian's packages if missing, initialises a
# throwaway cluster in a temporary directory, starts it on 127.0.0.1 on a free port, runs
# `swift test` with RECEIVER_TEST_POSTGRES_URL pointing at it, and always stops and removes it.
# RECEIVER_TEST_POSTGRES_CONTROL names a script that stops (`stop`: immediate shutdown, like a
# crash) and starts (`start`) that same cluster on the same data directory and port, for the test
# that takes the database away mid-burst. Under CI=true the PostgreSQL tests fail (never skip)
# without these.
#
#   Examples/NotificationReceiver/ci.sh [extra swift test arguments]
set -euo pipefail
cd "$(dirname "$0")"

need=()
for pkg in libsqlite3-dev postgresql; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ "${#need[@]}" -gt 0 ]; then
  echo "receiver-ci: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends "${need[@]}"
fi

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "receiver-ci: no PostgreSQL server binaries under /usr/lib/postgresql" >&2
  exit 2
fi

# The server refuses to run as root: as root, run it as the postgres user (created by the package).
as_owner() { "$@"; }
run_as=""
cluster=$(mktemp -d /tmp/receiver-pg.XXXXXX)
if [ "$(id -u)" = 0 ]; then
  chown postgres:postgres "$cluster"
  as_owner() { runuser -u postgres -- "$@"; }
  run_as="runuser -u postgres --"
fi

stop_cluster() {
  as_owner "$bindir/pg_ctl" -D "$cluster/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$cluster"
}
trap stop_cluster EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
as_owner "$bindir/initdb" -D "$cluster/data" -U postgres --auth=trust --no-sync -E UTF8 >"$cluster/initdb.log" 2>&1 \
  || { cat "$cluster/initdb.log" >&2; exit 2; }
options="-c listen_addresses=127.0.0.1 -p $port -k $cluster -c max_connections=100 -c fsync=on -c synchronous_commit=on"
as_owner "$bindir/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 60 -o "$options" start >/dev/null \
  || { cat "$cluster/server.log" >&2; exit 2; }
echo "receiver-ci: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"

# The same cluster stopped and started again, for the tests (the trap above still stops it).
cat >"$cluster/control.sh" <<EOF
#!/usr/bin/env bash
set -euo pipefail
case "\${1:-}" in
  stop) $run_as "$bindir/pg_ctl" -D "$cluster/data" -m immediate -w stop >/dev/null ;;
  start) $run_as "$bindir/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 60 -o "$options" start >/dev/null ;;
  *) echo "usage: \$0 stop|start" >&2; exit 64 ;;
esac
EOF
chmod 755 "$cluster/control.sh"

export RECEIVER_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
export RECEIVER_TEST_POSTGRES_CONTROL="$cluster/control.sh"
swift test "$@"

#!/usr/bin/env bash
# The HTTP verification service under load: verification-service (release build) on loopback, 16
# concurrent keep-alive clients (wrk, Debian's package) POSTing one real App Store transaction JWS
# to /v1/verify for DURATION seconds (default 20), the chain cached after the first request. Prints
# wrk's throughput and latency distribution (p50/p90/p99), then stops the service. Bounded and
# self-stopping; never run by the tests.
#
#   Benchmarks/http/load.sh [DURATION]
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${1:-20}
command -v wrk >/dev/null || { echo "load.sh: wrk is not installed (apt-get install wrk)" >&2; exit 2; }
vectors=$(Scripts/vectors-dir apple)
jws="$vectors/real/jws/Doy-lee-session-pro-backend/transaction-2000001024998954-20251001T070838.jws"

swift build -c release --package-path Examples/NotificationReceiver --product verification-service 2>&1 |
    grep -Ev '^\[[0-9]+/[0-9]+\]' || true
binary=$(swift build -c release --package-path Examples/NotificationReceiver --show-bin-path)/verification-service

work=$(mktemp -d)
python3 - "$jws" "$work/request.json" <<'PY'
import json, sys
jws = open(sys.argv[1]).read().strip()
json.dump({"kind": "transaction", "data": jws, "bundleId": "com.loki-project.loki-messenger", "environments": ["Sandbox"]},
          open(sys.argv[2], "w"))
PY
cat > "$work/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$work/request.json", "rb")
wrk.body = f:read("*a")
f:close()
local failures = 0
response = function(status, headers, body)
  if status ~= 200 then failures = failures + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("non-200 answers: %d\n", failures))
end
LUA

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
LOG_LEVEL=warning "$binary" --port "$port" > "$work/service.log" 2>&1 &
service=$!
trap 'kill "$service" 2>/dev/null || true; wait "$service" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
answer=$(curl -s -H 'Content-Type: application/json' --data-binary @"$work/request.json" "http://127.0.0.1:$port/v1/verify")
echo "$answer" | python3 -c 'import json,sys; a=json.load(sys.stdin); assert a["valid"], a; print("first answer: valid", a["kind"], a["environment"])'

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
wrk -t 2 -c 16 -d "${duration}s" --latency -s "$work/post.lua" "http://127.0.0.1:$port/v1/verify"

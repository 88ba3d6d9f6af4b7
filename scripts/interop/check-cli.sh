#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs `pusher-channels listen` against the independent Python server and checks what it printed;
# then `trigger`, `channels`, `channel` and `users` against an independent Python HTTP API server that
# checks every signature, and `webhooks` with webhooks signed in Python.
# Needs the Python package `websockets` and a built CLI (pass its path, default .build/debug).
set -euo pipefail
cli="${1:-.build/debug/pusher-channels}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'kill "${server_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT

python3 "$here/pusher_protocol_server.py" "$work/port" 3 2>>"$work/err" &
server_pid=$!
for _ in $(seq 1 100); do [ -s "$work/port" ] && break; sleep 0.1; done
port="$(cat "$work/port")"

timeout 60 "$cli" listen --key interop-key --host 127.0.0.1 --port "$port" --no-tls \
    --channel interop --count 3 --stats >"$work/out" 2>"$work/err"

expected='{"channel":"interop","event":"interop-event","data":"{\"n\": 0, \"text\": \"double-encoded \\u00e9\"}"}
{"channel":"interop","event":"interop-event","data":"{\"n\": 1, \"text\": \"object data\"}"}
{"channel":"interop","event":"interop-event","data":"plain text 2"}'
if [ "$(head -n 3 "$work/out")" != "$expected" ]; then
    echo "interop: unexpected events:"; cat "$work/out"; echo "--- stderr:"; cat "$work/err"; exit 1
fi
grep -Eq '^events=3 seconds=[0-9.]+ rate=[0-9.]+/s$' "$work/out" || { echo "interop: no stats line"; cat "$work/out"; exit 1; }
grep -q 'state: connected(socketID: 4242.4242)' "$work/err" || { echo "interop: never connected"; cat "$work/err"; exit 1; }
wait "$server_pid" || { echo "interop: the server saw an unclean close"; cat "$work/err"; exit 1; }
grep -q 'Traceback' "$work/err" && { echo "interop: server error"; cat "$work/err"; exit 1; }
echo "interop: pusher-channels listen received 3 events from an independent Python server: OK"

bash "$here/check-http-api.sh" "$cli"

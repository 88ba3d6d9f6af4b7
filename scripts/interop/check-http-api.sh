#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs `pusher-channels trigger`, `channels`, `channel` and `users` against an independent Python
# HTTP API server (pusher_http_api.py: it checks key, timestamp, body_md5 and the signature, and
# logs what it accepted), and `webhooks` with webhooks signed in Python. Standard library only.
set -euo pipefail
cli="${1:-.build/debug/pusher-channels}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'kill "${api_pid:-0}" "${hooks_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
fail() { echo "interop (HTTP API): $*"; for f in "$work"/*; do echo "--- $f:"; cat "$f"; done; exit 1; }

python3 "$here/pusher_http_api.py" serve "$work/port" "$work/log" 2>>"$work/server-err" &
api_pid=$!
for _ in $(seq 1 100); do [ -s "$work/port" ] && break; sleep 0.1; done
printf 'interop-secret\n' >"$work/secret"
printf 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n' >"$work/master-key"
api=(--app-id interop-app --key interop-key --secret-file "$work/secret" --host 127.0.0.1 --port "$(cat "$work/port")" --no-tls)
logged() { [ -f "$work/log" ] && wc -l <"$work/log" || echo 0; }

# Expects status $1 and standard output $2 of the CLI run with the remaining arguments.
expect() {
    local status="$1" output="$2"; shift 2
    local actual=0
    timeout 30 "$cli" "$@" >"$work/out" 2>"$work/err" <"${input:-/dev/null}" || actual=$?
    [ "$actual" = "$status" ] || fail "$* exited $actual, not $status"
    [ "$(cat "$work/out")" = "$output" ] || fail "$* printed $(cat "$work/out"), not $output"
}

expect 0 '{"channels":{"interop":{"subscription_count":1},"other":{"subscription_count":1}}}' \
    trigger "${api[@]}" --channel interop --channel other --event interop-event --data '{"n":1}' --info subscription_count
printf '{"text":"from stdin é"}\n' >"$work/data"
input="$work/data" expect 0 '{}' trigger "${api[@]}" --channel interop --event e --data - --socket-id 1.2
expect 0 '{}' trigger "${api[@]}" --master-key-file "$work/master-key" --channel private-encrypted-interop --event e --data secret
for n in $(seq 1 12); do echo "{\"channel\":\"c$n\",\"event\":\"e\",\"data\":{\"n\":$n}}"; done >"$work/batch"
input="$work/batch" expect 0 '{"batch":[{},{},{},{},{},{},{},{},{},{}]}
{"batch":[{},{}]}' trigger "${api[@]}" --batch
expect 0 '{"channels":{"interop":{},"presence-interop":{"user_count":1}}}' channels "${api[@]}" --prefix presence- --info user_count
expect 0 '{"occupied":true,"subscription_count":2}' channel "${api[@]}" interop --info subscription_count
expect 0 '{"users":[{"id":"interop-user"}]}' users "${api[@]}" presence-interop
[ "$(logged)" = 8 ] || fail "the server accepted $(logged) requests, not 8"

python3 - "$work/log" <<'PY' || fail "the server logged unexpected requests"
import json, sys
requests = [json.loads(line) for line in open(sys.argv[1])]
trigger, from_stdin, encrypted, first, second = requests[:5]
assert trigger["body"] == {"name": "interop-event", "channels": ["interop", "other"], "data": "{\"n\":1}",
                           "info": "subscription_count"}, trigger
assert from_stdin["body"]["data"] == '{"text":"from stdin \u00e9"}' and from_stdin["body"]["socket_id"] == "1.2"
assert set(json.loads(encrypted["body"]["data"])) == {"nonce", "ciphertext"}, encrypted
assert [e["channel"] for e in first["body"]["batch"] + second["body"]["batch"]] == [f"c{n}" for n in range(1, 13)]
assert first["body"]["batch"][0]["data"] == '{"n":1}'
assert requests[5]["query"] == {"filter_by_prefix": "presence-", "info": "user_count"}, requests[5]
assert requests[7]["path"] == "/apps/interop-app/channels/presence-interop/users"
PY

# Refused by the server's signature check: status and body on standard error, exit 1.
printf 'wrong-secret\n' >"$work/wrong-secret"
expect 1 '' trigger "${api[@]}" --secret-file "$work/wrong-secret" --channel interop --event e --data x
grep -q '401.*Invalid signature' "$work/err" || fail "no 401 on standard error"
# Usage errors: exit 2, no request.
channels=(); for n in $(seq 0 100); do channels+=(--channel "c$n"); done
expect 2 '' trigger "${api[@]}" "${channels[@]}" --event e --data x
expect 2 '' trigger "${api[@]}" --channel interop --event e --data "$(head -c 10241 /dev/zero | tr '\0' a)"
[ "$(logged)" = 8 ] || fail "a refused or invalid trigger reached the server"

# Webhooks signed in Python: valid ones printed, a tampered one refused with nothing printed.
"$cli" webhooks --port 0 --key interop-key --secret-file "$work/secret" >"$work/hooks-out" 2>"$work/hooks-err" &
hooks_pid=$!
for _ in $(seq 1 100); do grep -q 'listening on' "$work/hooks-err" && break; sleep 0.1; done
url="http://127.0.0.1:$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/hooks-err")/webhooks"
printf '{"time_ms": 1700000000000, "events": [{"name": "channel_occupied", "channel": "interop"}, {"name": "member_added", "channel": "presence-interop", "user_id": "7"}]}' >"$work/hook"
[ "$(python3 "$here/pusher_http_api.py" webhook "$url" interop-key interop-secret "$work/hook" tamper)" = 401 ] || fail "a tampered webhook was not refused"
[ "$(python3 "$here/pusher_http_api.py" webhook "$url" interop-key wrong "$work/hook")" = 401 ] || fail "a wrong secret was not refused"
[ -s "$work/hooks-out" ] && fail "a refused webhook printed something"
[ "$(python3 "$here/pusher_http_api.py" webhook "$url" interop-key interop-secret "$work/hook")" = 200 ] || fail "a valid webhook was refused"
kill -TERM "$hooks_pid"; wait "$hooks_pid" || fail "webhooks did not exit 0 on SIGTERM"
[ "$(cat "$work/hooks-out")" = '{"channel":"interop","name":"channel_occupied","time_ms":1700000000000}
{"channel":"presence-interop","name":"member_added","time_ms":1700000000000,"user_id":"7"}' ] || fail "webhooks printed something else"
echo "interop: trigger (plain, stdin, encrypted, batch), channels, channel, users passed an independent Python server's signature check; webhooks signed in Python verified: OK"

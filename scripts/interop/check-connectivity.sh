#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs `pusher-channels listen` through real third-party proxies (tinyproxy for HTTP CONNECT,
# microsocks for SOCKS5, each with and without credentials, and each refusing wrong ones) in front of
# the independent Python server (pusher_protocol_server.py), through the proxy environment
# (HTTPS_PROXY, NO_PROXY), with upgrade headers (--header) and with a list of endpoints (--host H:P
# repeated), with an auth endpoint reached through each proxy, and checks the usage errors of the three options (exit 2) and that no proxy password
# is ever printed.
# Needs python3 with `websockets`, tinyproxy and microsocks (installed with apt-get when missing and
# possible; otherwise the proxy cases are skipped, saying so), and a built CLI (default .build/debug).
set -euo pipefail
cli="${1:-.build/debug/pusher-channels}"
# The cases set the proxy environment themselves.
unset HTTPS_PROXY https_proxy ALL_PROXY all_proxy HTTP_PROXY http_proxy NO_PROXY no_proxy
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "interop (connectivity): $*" >&2
    for f in "$work"/out "$work"/err "$work"/*.log "$work"/headers; do
        [ -f "$f" ] && { echo "--- $f:" >&2; cat "$f" >&2; }
    done
    exit 1
}

# A free loopback port (the kernel's choice; a race with other processes is unlikely).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Starts the Python server (3 events per subscription; upgrade headers to $work/headers); sets $port.
start_server() {
    rm -f "$work/port" "$work/headers"
    python3 "$here/pusher_protocol_server.py" "$work/port" 3 "$work/headers" 2>>"$work/server.log" &
    pids+=($!)
    for _ in $(seq 1 100); do [ -s "$work/port" ] && break; sleep 0.1; done
    [ -s "$work/port" ] || fail "the Python server did not start"
    port="$(cat "$work/port")"
}

# Starts the Python auth endpoint (requests logged to $work/auth.log); sets $auth_port.
start_auth_endpoint() {
    rm -f "$work/auth-port"
    : >"$work/auth.log"
    python3 "$here/auth_endpoint.py" "$work/auth-port" "$work/auth.log" 2>>"$work/auth-server.log" &
    pids+=($!)
    for _ in $(seq 1 100); do [ -s "$work/auth-port" ] && break; sleep 0.1; done
    [ -s "$work/auth-port" ] || fail "the auth endpoint did not start"
    auth_port="$(cat "$work/auth-port")"
}

# Waits until something listens on 127.0.0.1:$1.
wait_listening() {
    for _ in $(seq 1 100); do
        python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $1), 1)" 2>/dev/null && return 0
        sleep 0.1
    done
    fail "nothing listens on port $1"
}

# Runs listen with the extra arguments until it has printed 3 events; checks them.
listen_ok() {
    local what="$1"; shift
    timeout 60 "$cli" listen --key interop-key --no-tls --channel interop --count 3 "$@" \
        >"$work/out" 2>"$work/err" || fail "$what: listen exited $?"
    [ "$(grep -c '"event":"interop-event"' "$work/out")" = 3 ] || fail "$what: not 3 events"
}

# Runs listen for a few seconds against a proxy that refuses; it must keep retrying (no exit), say
# on stderr what the proxy answered ($2, an extended regular expression) and never print $3.
listen_refused() {
    local what="$1" answer="$2" secret="$3"; shift 3
    local status=0
    timeout 6 "$cli" listen --key interop-key --no-tls --channel interop --count 3 "$@" \
        >"$work/out" 2>"$work/err" || status=$?
    [ "$status" = 124 ] || fail "$what: listen exited $status instead of retrying until stopped"
    grep -Eqi "$answer" "$work/err" || fail "$what: stderr does not name the proxy's answer ($answer)"
    if grep -qF "$secret" "$work/out" "$work/err"; then fail "$what: the proxy password was printed"; fi
}

# Expects exit status 2 (usage error) before any connection, with stderr matching $2 (an extended
# regular expression, case-insensitive: the reason, not only "unknown option").
usage_error() {
    local what="$1" reason="$2"; shift 2
    local status=0
    timeout 20 "$cli" listen --key interop-key --no-tls --channel interop --count 1 "$@" \
        >"$work/out" 2>"$work/err" || status=$?
    [ "$status" = 2 ] || fail "$what: exit $status, not 2"
    grep -Eqi "$reason" "$work/err" || fail "$what: stderr does not give the reason ($reason)"
    if grep -Eqi "unknown option|unexpected argument" "$work/err"; then fail "$what: the option is unknown"; fi
}

# --- Usage errors (no proxy or server needed) ---
usage_error "unknown proxy scheme" "scheme" --host 127.0.0.1 --port 9 --proxy ftp://127.0.0.1:21
usage_error "proxy without port" "port" --host 127.0.0.1 --port 9 --proxy http://127.0.0.1
usage_error "socks5 proxy without port" "port" --host 127.0.0.1 --port 9 --proxy socks5://user:pw@127.0.0.1
usage_error "Host header" "host" --host 127.0.0.1 --port 9 --header 'Host: elsewhere'
usage_error "Upgrade header" "upgrade" --host 127.0.0.1 --port 9 --header 'upgrade: h2c'
usage_error "Connection header" "connection" --host 127.0.0.1 --port 9 --header 'Connection: close'
usage_error "Sec-WebSocket-Key header" "sec-websocket" --host 127.0.0.1 --port 9 --header 'Sec-WebSocket-Key: abc'
usage_error "a header that is not Name: Value" "name: value" --host 127.0.0.1 --port 9 --header 'no colon here'

# --- Upgrade headers, a later one replacing an earlier one of the same name ---
start_server
listen_ok "--header" --host 127.0.0.1 --port "$port" \
    --header 'X-Interop-Token: first' --header 'Origin: https://app.example' --header 'x-interop-token: second'
grep -qi '^x-interop-token: second$' "$work/headers" || fail "--header: the later X-Interop-Token did not win"
if grep -qi '^x-interop-token: first$' "$work/headers"; then fail "--header: the earlier X-Interop-Token was sent too"; fi
grep -qi '^origin: https://app.example$' "$work/headers" || fail "--header: no Origin"

# --- Endpoints: a dead one first, then the live one (H:P entries) ---
dead="$(free_port)"
start_server
listen_ok "--host H:P failover" --host "127.0.0.1:$dead" --host "127.0.0.1:$port"

# --- --port is the default for entries without one ---
start_server
listen_ok "--host H with --port" --host "127.0.0.1:$dead" --host 127.0.0.1 --port "$port"

# --- Proxies ---
have_proxies() { command -v tinyproxy >/dev/null 2>&1 && command -v microsocks >/dev/null 2>&1; }
if ! have_proxies && command -v apt-get >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; fi
    if [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; then
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq tinyproxy microsocks >/dev/null 2>&1 \
            || { $sudo apt-get update -qq >/dev/null 2>&1 \
                && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq tinyproxy microsocks >/dev/null 2>&1; } \
            || true
    fi
fi
if ! have_proxies; then
    echo "interop (connectivity): SKIPPED the proxy cases (tinyproxy and microsocks are not installed and could not be)" >&2
    echo "interop (connectivity): headers, endpoints and usage errors passed"
    exit 0
fi

# tinyproxy on $1, with Basic credentials alice:$2 when $2 is given; logs to $work/tinyproxy.log.
start_tinyproxy() {
    local proxy_port="$1" password="${2:-}"
    {
        echo "Port $proxy_port"
        echo "Listen 127.0.0.1"
        echo "Timeout 60"
        echo "MaxClients 20"
        echo "LogLevel Connect"
        echo "LogFile \"$work/tinyproxy.log\""
        echo "Allow 127.0.0.1"
        [ -n "$password" ] && echo "BasicAuth alice $password"
    } >"$work/tinyproxy.conf"
    : >"$work/tinyproxy.log"
    tinyproxy -d -c "$work/tinyproxy.conf" >>"$work/tinyproxy-out.log" 2>&1 &
    pids+=($!)
    wait_listening "$proxy_port"
}

# microsocks on $1, with user bob and password $2 when $2 is given.
start_microsocks() {
    local proxy_port="$1" password="${2:-}"
    if [ -n "$password" ]; then
        microsocks -i 127.0.0.1 -p "$proxy_port" -u bob -P "$password" >"$work/microsocks.log" 2>&1 &
    else
        microsocks -i 127.0.0.1 -p "$proxy_port" >"$work/microsocks.log" 2>&1 &
    fi
    pids+=($!)
    wait_listening "$proxy_port"
}

stop_proxies() {
    pkill -f "tinyproxy -d -c $work/tinyproxy.conf" 2>/dev/null || true
    pkill -f "microsocks -i 127.0.0.1 -p $1" 2>/dev/null || true
    sleep 0.2
}

# HTTP CONNECT without credentials, also for the environment (HTTPS_PROXY) and NO_PROXY.
http_port="$(free_port)"
start_tinyproxy "$http_port"
start_server
listen_ok "HTTP CONNECT proxy" --host 127.0.0.1 --port "$port" --proxy "http://127.0.0.1:$http_port"
grep -q "CONNECT 127.0.0.1:$port" "$work/tinyproxy.log" || fail "HTTP CONNECT proxy: the proxy saw no CONNECT"

: >"$work/tinyproxy.log"
start_server
HTTPS_PROXY="http://127.0.0.1:$http_port" listen_ok "HTTPS_PROXY" --host 127.0.0.1 --port "$port"
grep -q "CONNECT 127.0.0.1:$port" "$work/tinyproxy.log" || fail "HTTPS_PROXY: the proxy saw no CONNECT"

: >"$work/tinyproxy.log"
start_server
ALL_PROXY="http://127.0.0.1:$http_port" listen_ok "ALL_PROXY" --host 127.0.0.1 --port "$port"
grep -q "CONNECT 127.0.0.1:$port" "$work/tinyproxy.log" || fail "ALL_PROXY: the proxy saw no CONNECT"

: >"$work/tinyproxy.log"
start_server
HTTPS_PROXY="http://127.0.0.1:$http_port" NO_PROXY="example.com,127.0.0.1" \
    listen_ok "NO_PROXY" --host 127.0.0.1 --port "$port"
if grep -q "CONNECT" "$work/tinyproxy.log"; then fail "NO_PROXY: the connection went through the proxy"; fi

: >"$work/tinyproxy.log"
start_server
HTTP_PROXY="http://127.0.0.1:$http_port" listen_ok "HTTP_PROXY is not read" --host 127.0.0.1 --port "$port"
if grep -q "CONNECT" "$work/tinyproxy.log"; then fail "HTTP_PROXY was used"; fi
stop_proxies 0

# HTTP CONNECT with Basic credentials (a password that needs percent-encoding in the URL).
http_port="$(free_port)"
start_tinyproxy "$http_port" 'Tiny-pw_42'
start_server
listen_ok "HTTP CONNECT proxy with credentials" --host 127.0.0.1 --port "$port" \
    --proxy "http://alice:Tiny%2Dpw_42@127.0.0.1:$http_port"
grep -q "CONNECT 127.0.0.1:$port" "$work/tinyproxy.log" || fail "HTTP CONNECT with credentials: no CONNECT"
if grep -qF 'Tiny' "$work/out" "$work/err"; then fail "HTTP CONNECT with credentials: the password was printed"; fi
listen_refused "HTTP CONNECT proxy, wrong password" '40[17]' 'Wrong-pw-99' --host 127.0.0.1 --port "$port" \
    --proxy "http://alice:Wrong-pw-99@127.0.0.1:$http_port"
listen_refused "HTTP CONNECT proxy, no credentials" '40[17]' 'Tiny-pw_42' --host 127.0.0.1 --port "$port" \
    --proxy "http://127.0.0.1:$http_port"

# The auth endpoint goes through the same proxy: as an absolute-URI request (http:// endpoint).
start_auth_endpoint
: >"$work/tinyproxy.log"
start_server
timeout 60 "$cli" listen --key interop-key --no-tls --channel private-interop --count 3 --host 127.0.0.1 \
    --port "$port" --proxy "http://alice:Tiny%2Dpw_42@127.0.0.1:$http_port" \
    --auth-endpoint "http://127.0.0.1:$auth_port/pusher/auth" >"$work/out" 2>"$work/err" \
    || fail "auth endpoint through the HTTP proxy: listen exited $?"
[ "$(grep -c '"event":"interop-event"' "$work/out")" = 3 ] || fail "auth endpoint through the HTTP proxy: not 3 events"
grep -q "POST http://127.0.0.1:$auth_port/pusher/auth" "$work/tinyproxy.log" \
    || fail "auth endpoint through the HTTP proxy: the proxy saw no absolute-URI POST"
grep -q "channel_name=private-interop" "$work/auth.log" || fail "auth endpoint through the HTTP proxy: not called"
if grep -qF 'Tiny' "$work/out" "$work/err"; then fail "auth endpoint through the HTTP proxy: the password was printed"; fi
stop_proxies 0

# SOCKS5 without and with user/password.
socks_port="$(free_port)"
start_microsocks "$socks_port"
start_server
listen_ok "SOCKS5 proxy" --host 127.0.0.1 --port "$port" --proxy "socks5://127.0.0.1:$socks_port"
stop_proxies "$socks_port"

socks_port="$(free_port)"
start_microsocks "$socks_port" 'Socks-pw_7'
start_server
listen_ok "SOCKS5 proxy with credentials" --host 127.0.0.1 --port "$port" \
    --proxy "socks5://bob:Socks-pw_7@127.0.0.1:$socks_port"
if grep -qF 'Socks-pw' "$work/out" "$work/err"; then fail "SOCKS5 with credentials: the password was printed"; fi
# The auth endpoint through the same SOCKS5 proxy, with its credentials.
: >"$work/auth.log"
start_server
timeout 60 "$cli" listen --key interop-key --no-tls --channel private-interop --count 3 --host 127.0.0.1 \
    --port "$port" --proxy "socks5://bob:Socks-pw_7@127.0.0.1:$socks_port" \
    --auth-endpoint "http://127.0.0.1:$auth_port/pusher/auth" >"$work/out" 2>"$work/err" \
    || fail "auth endpoint through the SOCKS5 proxy: listen exited $?"
[ "$(grep -c '"event":"interop-event"' "$work/out")" = 3 ] || fail "auth endpoint through the SOCKS5 proxy: not 3 events"
grep -q "channel_name=private-interop" "$work/auth.log" || fail "auth endpoint through the SOCKS5 proxy: not called"
grep -q "client.*connected to 127.0.0.1:$auth_port" "$work/microsocks.log" \
    || fail "auth endpoint through the SOCKS5 proxy: the proxy did not carry it"
listen_refused "SOCKS5 proxy, wrong password" 'socks' 'Wrong-socks-3' --host 127.0.0.1 --port "$port" \
    --proxy "socks5://bob:Wrong-socks-3@127.0.0.1:$socks_port"
stop_proxies "$socks_port"

echo "interop (connectivity): headers, endpoints, usage errors, tinyproxy (CONNECT, Basic, 401/407, absolute-URI auth) and microsocks (SOCKS5, user/password, auth endpoint) passed"

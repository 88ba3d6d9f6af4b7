#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Drives `pusher-channels serve` with the official Python server library (PyPI pusher 3.3.4) and the
# pysher 1.0.8 client (serve_official_libraries.py), in a virtual environment of its own. Without
# python3 or when pip cannot install them, the check is skipped and says so.
set -euo pipefail
cli="$(cd "$(dirname "${1:-.build/debug/pusher-channels}")" && pwd)/$(basename "${1:-.build/debug/pusher-channels}")"
here="$(cd "$(dirname "$0")" && pwd)"
venv="${PUSHER_INTEROP_VENV:-${TMPDIR:-/tmp}/pusher-channels-interop-venv}"
if ! command -v python3 >/dev/null 2>&1 \
    || ! { [ -x "$venv/bin/python" ] || python3 -m venv "$venv" >/dev/null 2>&1; } \
    || ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check pusher==3.3.4 pysher==1.0.8 >/dev/null 2>&1; then
    echo "check-serve: SKIPPED serve's interop check (python3 with pip could not install pusher 3.3.4 and pysher 1.0.8)" >&2
    exit 0
fi
timeout 120 "$venv/bin/python" "$here/serve_official_libraries.py" "$cli"

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The figures of `pusher-channels serve` left running (a measurement, not a test): starts the
given binary's `serve --port 0`, drives it over loopback only, reads its resident memory and CPU
from /proc, and prints one line per figure. Needs Python's `websockets` package. Linux only.

  scripts/serve-figures.py PATH_TO_pusher-channels [--cycles N] [--clients N] [--events N]

1. N connect/close cycles (each subscribes to a channel first): RSS before and after.
2. N WebSocket clients on one channel, M events through the signed HTTP API: deliveries counted,
   wall time, serve's CPU and peak RSS.
3. A client that never reads beside 10 that do, 2,000 events of 10,000 bytes: what the 10 got, whether
   the silent one was closed, serve's peak RSS.
"""
import argparse
import asyncio
import hashlib
import hmac
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import websockets

KEY, SECRET, APP_ID = "app-key", "app-secret", "1"


def memory(pid):
    """(RSS, peak RSS) of `pid` in KiB."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, rest = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                values[name] = int(rest.split()[0])
    return values["VmRSS"], values["VmHWM"]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def trigger(port, channel, event, data):
    body = json.dumps({"name": event, "channels": [channel], "data": data}, separators=(",", ":")).encode()
    path = f"/apps/{APP_ID}/events"
    query = {
        "auth_key": KEY,
        "auth_timestamp": str(int(time.time())),
        "auth_version": "1.0",
        "body_md5": hashlib.md5(body).hexdigest(),
    }
    text = "&".join(f"{k}={query[k]}" for k in sorted(query))
    signature = hmac.new(SECRET.encode(), f"POST\n{path}\n{text}".encode(), hashlib.sha256).hexdigest()
    url = f"http://127.0.0.1:{port}{path}?{text}&auth_signature={signature}"
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200, response.status


async def subscribed(port, channel):
    socket_ = await websockets.connect(f"ws://127.0.0.1:{port}/app/{KEY}?protocol=7", max_size=None, max_queue=None)
    await socket_.recv()  # connection_established
    await socket_.send(json.dumps({"event": "pusher:subscribe", "data": {"channel": channel}}))
    while json.loads(await socket_.recv())["event"] != "pusher_internal:subscription_succeeded":
        pass
    return socket_


async def cycles(port, pid, count):
    await (await subscribed(port, "warm-up")).close()
    before = memory(pid)[0]
    for number in range(count):
        connection = await subscribed(port, f"cycle-{number % 10}")
        await connection.close()
    await asyncio.sleep(1)
    after = memory(pid)[0]
    print(f"cycles: {count} connect/subscribe/close: RSS {before} KiB before, {after} KiB after "
          f"({(after - before) * 100 / before:+.1f} %)")


async def fan_out(port, pid, clients, events):
    sockets = [await subscribed(port, "fan-out") for _ in range(clients)]
    received = [0]

    async def count(connection):
        async for _ in connection:
            received[0] += 1
            if received[0] == clients * events:
                return

    readers = [asyncio.create_task(count(s)) for s in sockets]
    cpu_before, started = cpu_seconds(pid), time.monotonic()
    loop = asyncio.get_running_loop()
    for number in range(events):
        await loop.run_in_executor(None, trigger, port, "fan-out", "tick", json.dumps({"n": number}))
    deadline = time.monotonic() + 60
    while received[0] < clients * events and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    wall, cpu = time.monotonic() - started, cpu_seconds(pid) - cpu_before
    print(f"fan-out: {clients} clients x {events} events: {received[0]} of {clients * events} deliveries in "
          f"{wall:.2f} s; serve CPU {cpu:.2f} s; peak RSS {memory(pid)[1]} KiB")
    for reader in readers:
        reader.cancel()
    for connection in sockets:
        await connection.close()


async def silent_reader(port, pid, log):
    # A raw socket that subscribes, then never reads again.
    raw = socket.create_connection(("127.0.0.1", port))
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.sendall((f"GET /app/{KEY}?protocol=7 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                 "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").encode())
    payload = json.dumps({"event": "pusher:subscribe", "data": {"channel": "flood"}}).encode()
    mask = b"\x01\x02\x03\x04"
    frame = bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    await asyncio.sleep(0.2)
    raw.sendall(frame)
    await asyncio.sleep(0.2)
    socket_id = re.search(rb'socket_id\\":\\"([0-9.]+)', raw.recv(4096)).group(1).decode()
    readers = [await subscribed(port, "flood") for _ in range(10)]
    await asyncio.sleep(0.2)
    events, data = 2000, "x" * 10_000
    got = [0] * 10

    async def count(index, connection):
        async for _ in connection:
            got[index] += 1
            if got[index] == events:
                return

    tasks = [asyncio.create_task(count(i, r)) for i, r in enumerate(readers)]
    loop = asyncio.get_running_loop()
    for _ in range(events):
        await loop.run_in_executor(None, trigger, port, "flood", "big", data)
    await asyncio.wait(tasks, timeout=60)
    closed = False
    for _ in range(50):
        with open(log) as errors:
            closed = f"{socket_id}: closed" in errors.read()
        if closed:
            break
        await asyncio.sleep(0.1)
    print(f"silent reader: the 10 readers got {sorted(set(got))} of {events} events each; the silent one "
          f"{'was closed' if closed else 'is still open'}; serve peak RSS {memory(pid)[1]} KiB")
    for r in readers:
        await r.close()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--cycles", type=int, default=20_000)
    parser.add_argument("--clients", type=int, default=1_000)
    parser.add_argument("--events", type=int, default=100)
    arguments = parser.parse_args()
    log = tempfile.NamedTemporaryFile("w+", prefix="serve-figures-", suffix=".log")
    serve = subprocess.Popen([arguments.binary, "serve", "--port", "0", "--log-level", "info"],
                             stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        port = json.loads(serve.stdout.readline())["port"]
        print(f"serve: pid {serve.pid}, port {port}, RSS at start {memory(serve.pid)[0]} KiB")
        await cycles(port, serve.pid, arguments.cycles)
        await fan_out(port, serve.pid, arguments.clients, arguments.events)
        await silent_reader(port, serve.pid, log.name)
    finally:
        serve.terminate()
        serve.wait(timeout=10)


if __name__ == "__main__":
    asyncio.run(main())

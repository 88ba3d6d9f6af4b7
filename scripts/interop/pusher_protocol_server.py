#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A minimal, independent Pusher Channels protocol 7 server, for checking the CLI against a peer
that is not this package's own fake server. Written against the protocol description only.

Usage: pusher_protocol_server.py PORT_FILE [EVENTS [HEADERS_FILE]]
Binds 127.0.0.1 on a free port, writes the port to PORT_FILE, and for every subscription sends
EVENTS events (default 3) on that channel: JSON data double-encoded (as Pusher does), then object
data (as some servers do), then plain text. With HEADERS_FILE, writes the upgrade request's headers
there ("Name: value" lines). Exits after the first client disconnects.
"""
import asyncio
import json
import sys

import websockets


async def serve(port_file: str, events: int, headers_file: str | None) -> None:
    done = asyncio.get_running_loop().create_future()

    async def handler(ws):
        path = ws.request.path if hasattr(ws, "request") else ws.path
        if headers_file:
            headers = ws.request.headers if hasattr(ws, "request") else ws.request_headers
            with open(headers_file, "w") as handle:
                handle.writelines(f"{name}: {value}\n" for name, value in headers.raw_items())
        if "/app/interop-key" not in path or "protocol=7" not in path:
            await ws.close(4001, "App key not in this cluster")
            return
        await ws.send(json.dumps({
            "event": "pusher:connection_established",
            "data": json.dumps({"socket_id": "4242.4242", "activity_timeout": 30}),
        }))
        try:
            async for raw in ws:
                message = json.loads(raw)
                name, data = message.get("event"), message.get("data") or {}
                if name == "pusher:ping":
                    await ws.send(json.dumps({"event": "pusher:pong", "data": "{}"}))
                elif name == "pusher:subscribe":
                    channel = data["channel"]
                    await ws.send(json.dumps({"event": "pusher_internal:subscription_succeeded",
                                              "channel": channel, "data": "{}"}))
                    for index in range(events):
                        kind = index % 3
                        if kind == 0:
                            payload = json.dumps({"n": index, "text": "double-encoded \u00e9"})
                        elif kind == 1:
                            payload = {"n": index, "text": "object data"}
                        else:
                            payload = f"plain text {index}"
                        await ws.send(json.dumps({"event": "interop-event", "channel": channel,
                                                  "data": payload}))
        finally:
            if not done.done():
                done.set_result(None)

    async with websockets.serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        with open(port_file, "w") as handle:
            handle.write(str(port))
        await asyncio.wait_for(done, timeout=120)


if __name__ == "__main__":
    asyncio.run(serve(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3,
                      sys.argv[3] if len(sys.argv) > 3 else None))

# SPDX-License-Identifier: MIT
"""Drives `pusher-channels serve` with the official Python server library (PyPI `pusher`) and the
`pysher` client: subscriptions signed right and wrong, client events, triggers, batches, queries,
sign-in and terminate_connections, webhooks verified by the library, SIGTERM.

Usage: serve_official_libraries.py PATH_TO_PUSHER_CHANNELS
"""
import http.server
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

import pusher
import pysher
import websocket

KEY, SECRET, APP_ID = "interop-key", "interop-secret", "4242"


def wait_for(condition, what, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Recorder:
    """What a pysher client saw, per (channel, event)."""

    def __init__(self):
        self.seen = []
        self.lock = threading.Lock()

    def callback(self, channel, event):
        def record(data, *args, **kwargs):
            with self.lock:
                self.seen.append((channel, event, data))
        return record

    def events(self, channel, event):
        with self.lock:
            return [data for (c, e, data) in self.seen if c == channel and e == event]


def client(port, secret, user_data=None):
    return pysher.Pusher(KEY, secure=False, port=port, custom_host="127.0.0.1", secret=secret,
                         user_data=user_data or {}, reconnect_interval=1)


def connect(socket, channels, recorder, events):
    ready = threading.Event()

    def on_connected(data):
        for name in channels:
            channel = socket.subscribe(name)
            for event in events:
                channel.bind(event, recorder.callback(name, event))
        ready.set()

    socket.connection.bind("pusher:connection_established", on_connected)
    socket.connect()
    if not ready.wait(10):
        raise AssertionError("pysher did not connect")


def main():
    cli = sys.argv[1]
    work = tempfile.mkdtemp()
    secret_file = os.path.join(work, "secret")
    with open(secret_file, "w") as f:
        f.write(SECRET + "\n")

    # A webhook receiver that checks every webhook with the official library.
    hooks, bad_hooks = [], []
    verifier = pusher.Pusher(app_id=APP_ID, key=KEY, secret=SECRET)

    class Hooks(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            checked = verifier.validate_webhook(self.headers.get("X-Pusher-Key"),
                                                self.headers.get("X-Pusher-Signature"), body)
            (hooks if checked else bad_hooks).append(json.loads(body))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hooks)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    hook_url = f"http://127.0.0.1:{receiver.server_address[1]}/hooks"

    server = subprocess.Popen([cli, "serve", "--port", "0", "--app-id", APP_ID, "--key", KEY,
                               "--secret-file", secret_file, "--webhook-url", hook_url],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        announced = json.loads(server.stdout.readline())
        assert announced["host"] == "127.0.0.1" and announced["app_id"] == APP_ID and announced["key"] == KEY, announced
        assert SECRET not in json.dumps(announced)
        port = announced["port"]
        api = pusher.Pusher(app_id=APP_ID, key=KEY, secret=SECRET, host="127.0.0.1", port=port, ssl=False)

        events = ["news", "client-hello", "pusher_internal:subscription_succeeded", "pusher:subscription_error", "pusher:cache_miss"]
        alice, alice_seen = client(port, SECRET, {"user_id": "alice", "user_info": {"name": "Alice"}}), Recorder()
        connect(alice, ["interop", "private-interop", "presence-interop", "cache-interop"], alice_seen, events)
        bob, bob_seen = client(port, SECRET, {"user_id": "bob"}), Recorder()
        connect(bob, ["private-interop", "presence-interop"], bob_seen, events)
        eve, eve_seen = client(port, "wrong-secret", {"user_id": "eve"}), Recorder()
        connect(eve, ["private-interop", "interop"], eve_seen, events)
        wait_for(lambda: len(alice_seen.events("presence-interop", "pusher_internal:subscription_succeeded")) == 1
                 and len(bob_seen.events("presence-interop", "pusher_internal:subscription_succeeded")) == 1
                 and eve_seen.events("private-interop", "pusher:subscription_error")
                 and eve_seen.events("interop", "pusher_internal:subscription_succeeded"), "subscriptions")
        refusal = eve_seen.events("private-interop", "pusher:subscription_error")[0]
        refusal = json.loads(refusal) if isinstance(refusal, str) else refusal
        assert refusal["type"] == "AuthError" and refusal["status"] == 401, refusal
        wait_for(lambda: alice_seen.events("cache-interop", "pusher:cache_miss"), "pusher:cache_miss")

        # The official library: trigger (with socket_id exclusion), batch, queries.
        api.trigger(["interop"], "news", {"n": 1})
        api.trigger_batch([{"channel": "interop", "name": "news", "data": {"n": 2}},
                           {"channel": "private-interop", "name": "news", "data": "two"}])
        wait_for(lambda: len(alice_seen.events("interop", "news")) == 2 and len(eve_seen.events("interop", "news")) == 2
                 and bob_seen.events("private-interop", "news") == ["two"], "triggered events")
        assert [json.loads(d) for d in alice_seen.events("interop", "news")] == [{"n": 1}, {"n": 2}]
        assert eve_seen.events("private-interop", "news") == []
        channels = api.channels_info(prefix_filter="presence-", attributes=["user_count"])
        assert channels == {"channels": {"presence-interop": {"user_count": 2}}}, channels
        info = api.channel_info("private-interop", ["subscription_count"])
        assert info == {"occupied": True, "subscription_count": 2}, info
        users = api.users_info("presence-interop")
        assert sorted(u["id"] for u in users["users"]) == ["alice", "bob"], users

        # A client event goes to the others, never back to the sender.
        bob.channel("private-interop").trigger("client-hello", {"from": "bob"})
        wait_for(lambda: alice_seen.events("private-interop", "client-hello"), "the client event")
        time.sleep(0.3)
        assert bob_seen.events("private-interop", "client-hello") == []
        assert alice_seen.events("private-interop", "client-hello") == [{"from": "bob"}], alice_seen.seen

        # Sign-in signed by the official library, then terminate_connections closes with 4009.
        raw = websocket.create_connection(f"ws://127.0.0.1:{port}/app/{KEY}?protocol=7&client=interop", timeout=10)
        socket_id = json.loads(json.loads(raw.recv())["data"])["socket_id"]
        signed = api.authenticate_user(socket_id, {"id": "carol"})
        raw.send(json.dumps({"event": "pusher:signin", "data": signed}))
        assert json.loads(raw.recv())["event"] == "pusher:signin_success"
        raw.send(json.dumps({"event": "pusher:subscribe", "data": {"channel": "#server-to-user-carol"}}))
        assert json.loads(raw.recv())["event"] == "pusher_internal:subscription_succeeded"
        api.send_to_user("carol", "note", {"hi": 1})
        assert json.loads(raw.recv())["event"] == "note"
        api.terminate_user_connections("carol")
        opcode, frame = raw.recv_data(control_frame=True)
        assert opcode == websocket.ABNF.OPCODE_CLOSE and int.from_bytes(frame[:2], "big") == 4009, (opcode, frame)

        # A wrong secret is refused with 401.
        wrong = pusher.Pusher(app_id=APP_ID, key=KEY, secret="wrong", host="127.0.0.1", port=port, ssl=False)
        try:
            wrong.trigger(["interop"], "news", {"n": 3})
            raise AssertionError("a wrong secret was accepted")
        except pusher.errors.PusherBadAuth:
            pass

        # Webhooks, each verified by the official library.
        def names():
            return [(e["name"], e.get("channel")) for h in hooks for e in h["events"]]
        wait_for(lambda: ("client_event", "private-interop") in names(), "webhooks")
        assert bad_hooks == [], bad_hooks
        assert ("channel_occupied", "interop") in names() and ("member_added", "presence-interop") in names(), names()
        client_event = next(e for h in hooks for e in h["events"] if e["name"] == "client_event")
        assert client_event["event"] == "client-hello" and json.loads(client_event["data"]) == {"from": "bob"}
        assert all(isinstance(h["time_ms"], int) for h in hooks)

        # SIGTERM with the pysher clients still connected: every connection is closed, exit 0 within 5 s.
        started = time.monotonic()
        server.send_signal(signal.SIGTERM)
        status = server.wait(timeout=10)
        assert status == 0 and time.monotonic() - started < 5, (status, server.stderr.read())
        assert server.stdout.read() == "", "serve printed more than one line on standard output"
        for socket in (alice, bob, eve):
            socket.disconnect(timeout=1)
    finally:
        if server.poll() is None:
            server.kill()
        receiver.shutdown()
    print("interop: serve against pusher (official Python server library) and pysher: OK")


if __name__ == "__main__":
    main()

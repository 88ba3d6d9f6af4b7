#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An independent check of `pusher-channels` against the Channels HTTP API and webhooks, written
against the API description only (standard library, no Pusher code).

  pusher_http_api.py serve PORT_FILE LOG_FILE
      An HTTP API server for app id `interop-app`, key `interop-key`, secret `interop-secret` on a
      free 127.0.0.1 port (written to PORT_FILE). Every request must be signed: `auth_key` known,
      `auth_version` 1.0, `auth_timestamp` within 600 s, `body_md5` the MD5 of the exact body
      bytes (POST; on a GET absent or the MD5 of nothing), and `auth_signature` the HMAC-SHA256 of
      "METHOD\\nPATH\\nQUERY" (every other parameter, keys lowercased, sorted, `key=value` joined
      by `&`, values not percent-encoded), compared in constant time. Otherwise 401. Limits: 100
      channels per trigger, 10 events per batch (400), 10,240 bytes of data (413). Each accepted
      request is appended to LOG_FILE as one JSON line {"method", "path", "query", "body"}.

  pusher_http_api.py webhook URL KEY SECRET BODY_FILE [tamper]
      POSTs BODY_FILE to URL with X-Pusher-Key KEY and X-Pusher-Signature HMAC-SHA256(SECRET,
      body) (with `tamper`, the body is changed after signing); prints the response status.
"""
import base64
import hashlib
import hmac
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

APP_ID, KEY, SECRET = "interop-app", "interop-key", "interop-secret"
CHANNEL_CHARACTERS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-=@,.;")


class Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def check_signature(method: str, path: str, query: list, body: bytes) -> None:
    params = {}
    for name, value in query:
        if name in params:
            raise Refused(401, f"duplicate parameter {name}")
        params[name] = value
    if params.get("auth_key") != KEY:
        raise Refused(401, "Unknown auth_key")
    if params.get("auth_version") != "1.0":
        raise Refused(401, "auth_version must be 1.0")
    try:
        timestamp = int(params.get("auth_timestamp", ""))
    except ValueError:
        raise Refused(401, "auth_timestamp is not a number")
    if abs(time.time() - timestamp) > 600:
        raise Refused(401, "Timestamp expired: not within 600s of server time")
    expected_md5 = hashlib.md5(body).hexdigest()
    if method == "POST" or "body_md5" in params:
        if params.get("body_md5") != expected_md5:
            raise Refused(401, "body_md5 does not match the body")
    signature = params.pop("auth_signature", None)
    if signature is None:
        raise Refused(401, "auth_signature missing")
    signed_query = "&".join(f"{name.lower()}={value}" for name, value in
                            sorted(params.items(), key=lambda item: item[0].lower()))
    string_to_sign = f"{method}\n{path}\n{signed_query}"
    expected = hmac.new(SECRET.encode(), string_to_sign.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, signature):
        raise Refused(401, f"Invalid signature: you should have sent HmacSHA256Hex({string_to_sign!r}, your_secret_key)")


def check_event(event: dict, channels: list) -> None:
    if not isinstance(event.get("name"), str) or not event["name"]:
        raise Refused(400, "name missing")
    if not isinstance(event.get("data"), str):
        raise Refused(400, "data must be a string")
    if not 1 <= len(channels) <= 100:
        raise Refused(400, "1 to 100 channels")
    for channel in channels:
        if not isinstance(channel, str) or not channel or len(channel) > 200 \
                or not set(channel) <= CHANNEL_CHARACTERS:
            raise Refused(400, f"invalid channel name {channel!r}")
    if len(event["data"].encode()) > 10240:
        raise Refused(413, "data over 10240 bytes")
    if "socket_id" in event:
        left, dot, right = str(event["socket_id"]).partition(".")
        if not (dot and left.isdigit() and right.isdigit()):
            raise Refused(400, "invalid socket_id")
    if any(channel.startswith("private-encrypted-") for channel in channels):
        if len(channels) != 1:
            raise Refused(400, "an encrypted channel must be the only one")
        payload = json.loads(event["data"])
        if set(payload) != {"nonce", "ciphertext"} or len(base64.b64decode(payload["nonce"])) != 24 \
                or len(base64.b64decode(payload["ciphertext"])) < 16:
            raise Refused(400, "encrypted data must be {nonce (24 bytes), ciphertext}")


def answer(event: dict, channels: list) -> dict:
    info = [item for item in event.get("info", "").split(",") if item]
    return {"channels": {channel: {name: 1 for name in info} for channel in channels}} if info else {}


class Handler(BaseHTTPRequestHandler):
    log_file = ""

    def log_message(self, *args) -> None:  # quiet: the check reads the log file
        pass

    def do_GET(self) -> None:
        self.handle_request("GET")

    def do_POST(self) -> None:
        self.handle_request("POST")

    def handle_request(self, method: str) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        path, _, raw_query = self.path.partition("?")
        query = urllib.parse.parse_qsl(raw_query, keep_blank_values=True, strict_parsing=bool(raw_query))
        try:
            check_signature(method, path, query, body)
            prefix = f"/apps/{APP_ID}"
            if not path.startswith(prefix + "/"):
                raise Refused(404, "unknown app")
            route = path[len(prefix):]
            parsed = json.loads(body) if body else None
            if method == "POST" and route == "/events":
                channels = parsed.get("channels") or [parsed.get("channel")]
                check_event(parsed, channels)
                response = answer(parsed, channels)
            elif method == "POST" and route == "/batch_events":
                batch = parsed["batch"]
                if not 1 <= len(batch) <= 10:
                    raise Refused(400, "1 to 10 events per batch")
                for event in batch:
                    check_event(event, [event.get("channel")])
                response = {"batch": [answer(event, [event["channel"]]).get("channels", {}).get(event["channel"], {})
                                      for event in batch]}
            elif method == "GET" and route == "/channels":
                response = {"channels": {"interop": {}, "presence-interop": {"user_count": 1}}}
            elif method == "GET" and route.startswith("/channels/") and route.endswith("/users"):
                response = {"users": [{"id": "interop-user"}]}
            elif method == "GET" and route.startswith("/channels/"):
                response = {"occupied": True, "subscription_count": 2}
            else:
                raise Refused(404, "no such endpoint")
        except Refused as refused:
            self.reply(refused.status, refused.message.encode())
            return
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            self.reply(400, f"malformed request: {error}".encode())
            return
        signed = {name: value for name, value in query if not name.startswith("auth_") and name != "body_md5"}
        with open(self.log_file, "a") as log:
            log.write(json.dumps({"method": method, "path": path, "query": signed, "body": parsed},
                                 sort_keys=True) + "\n")
        self.reply(200, json.dumps(response, separators=(",", ":")).encode())

    def reply(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json" if status == 200 else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve(port_file: str, log_file: str) -> None:
    Handler.log_file = log_file
    server = HTTPServer(("127.0.0.1", 0), Handler)
    with open(port_file, "w") as handle:
        handle.write(str(server.server_address[1]))
    server.serve_forever()


def send_webhook(url: str, key: str, secret: str, body_file: str, tamper: bool) -> None:
    with open(body_file, "rb") as handle:
        body = handle.read()
    signature = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    if tamper:
        body = body.replace(b"channel_", b"channel-", 1)
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "X-Pusher-Key": key, "X-Pusher-Signature": signature})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            print(response.status)
    except urllib.error.HTTPError as error:
        print(error.code)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "webhook":
        send_webhook(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], len(sys.argv) > 6 and sys.argv[6] == "tamper")
    else:
        sys.exit(f"unknown mode {sys.argv[1]}")

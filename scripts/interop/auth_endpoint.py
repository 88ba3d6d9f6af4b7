#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A minimal channel auth endpoint for the interop checks, standard library only.

Usage: auth_endpoint.py PORT_FILE LOG_FILE
Binds 127.0.0.1 on a free port, writes the port to PORT_FILE, and answers every POST with an
authorization signed by the app secret `interop-secret` for key `interop-key` (HMAC-SHA256 of
"socket_id:channel_name"), appending one line per request to LOG_FILE: the request line as the
endpoint received it, then the form fields.
"""
import hashlib
import hmac
import http.server
import json
import sys
import urllib.parse

KEY, SECRET = "interop-key", b"interop-secret"


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        fields = urllib.parse.parse_qs(self.rfile.read(length).decode())
        socket_id, channel = fields["socket_id"][0], fields["channel_name"][0]
        with open(sys.argv[2], "a") as log:
            log.write(f"{self.requestline} socket_id={socket_id} channel_name={channel}\n")
        signature = hmac.new(SECRET, f"{socket_id}:{channel}".encode(), hashlib.sha256).hexdigest()
        body = json.dumps({"auth": f"{KEY}:{signature}"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(sys.argv[1], "w") as handle:
        handle.write(str(server.server_address[1]))
    server.serve_forever()

// SPDX-License-Identifier: MIT

/// The discussion of `pusher-channels serve --help`.
enum ServeHelp {
    static let discussion = """
        A Pusher Channels server (protocol 7) for local development and tests: the WebSocket at \
        /app/KEY and the HTTP API under /apps/ID/, on the same port, plain ws:// and http:// (no \
        TLS). Point pusher-js, the mobile SDKs or PusherClient at HOST:PORT with TLS off and the \
        key; point the official server libraries at it with the app id, key and secret.

        Once listening, it prints one line on standard output and nothing else: \
        {"host":"127.0.0.1","port":N,"app_id":"…","key":"…"} (never the secret). "host" is the \
        address a local client connects to: 127.0.0.1 for --bind 0.0.0.0, ::1 for --bind ::, \
        the --bind address otherwise. Logs go to \
        standard error. The secret: --secret, --secret-file (a trailing newline is ignored) or \
        PUSHER_SECRET, else "app-secret"; --secret and --secret-file together are a usage error.

        WebSocket: public, private-, presence-, private-encrypted- and cache- channels (a new \
        subscriber of a cache channel gets its last event, or pusher:cache_miss). The auth of \
        private, presence and encrypted subscriptions and of pusher:signin is checked with the \
        secret: a bad subscription auth gets pusher:subscription_error on that channel \
        ({"type":"AuthError","error":…,"status":401}) and the connection stays open; a bad sign-in \
        gets pusher:error 4009. The signed-in user may subscribe to #server-to-user-ID. Client \
        events on private and presence channels go to the channel's other members (never back to \
        the sender), their data relayed as sent. An unknown app key gets pusher:error 4001 and a \
        close with 4001.

        HTTP API: POST events, POST batch_events, GET channels, GET channels/NAME, GET \
        channels/NAME/users, POST users/ID/terminate_connections (closes that user's connections \
        with 4009). Every request's auth_key, auth_timestamp (within 600 s), auth_signature and \
        body_md5 are checked: 401 otherwise. Pusher's limits apply (100 channels a trigger, 10 \
        events a batch, 10,240 bytes of data: 400 or 413).

        Webhooks: every --webhook-url gets, in order, POST {"time_ms":…,"events":[…]} signed \
        with X-Pusher-Key and X-Pusher-Signature (HMAC-SHA256 of the body with the secret): \
        channel_occupied, channel_vacated, member_added, member_removed and client_event. Each URL \
        has a queue of its own (one that does not answer delays only its webhooks); redirects \
        are not followed; each delivery waits at most 5 s; at most 16 MiB of webhooks wait, \
        10,000 a URL (more are dropped).

        Auth endpoints: off by default. --auth-endpoints adds POST /pusher/auth and POST \
        /pusher/user-auth, which sign ANY channel for ANY socket (presence as user-SOCKET_ID) and \
        any user_id with the secret: for trying a client without a backend; anyone who reaches \
        the port can then read every private channel.

        Bounds: 1,000 WebSockets (more upgrades get 503) and 256 other connections at once \
        (handshakes, HTTP; more are closed at once), so the HTTP API answers while the WebSockets \
        are full; 10 s for a connection's upgrade or HTTP request to arrive (and for a kept-alive \
        HTTP connection to stay idle); WebSocket messages of 256 KiB (fragments are joined; \
        unmasked frames close with 1002, invalid UTF-8 with 1007); HTTP bodies of 1 MiB (413); \
        4 MiB or 4,096 frames queued for a client (a slower reader is disconnected). A \
        connection silent for --activity-timeout seconds (120) gets pusher:ping and a ping frame, \
        and is closed with 4201 if it does not answer within 30 s. Client events: 10 KB of data; \
        presence: 100 members, 1 KB of user_info, user ids of 128 characters (pusher:error or \
        pusher:subscription_error LimitReached). Nothing is kept of a closed connection. \
        --allowed-origin limits which web pages may open a WebSocket (403 for others).

        Logs (standard error, escaped, at most 100 lines a second): --log-level info (the \
        default) logs each connection opened and closed with its socket id and close code, each \
        refused subscription, client event, sign-in or HTTP request with the reason, and each \
        failed webhook delivery; debug adds every frame; error and none log less.

        SIGINT or SIGTERM closes every connection (code 4200) and exits 0 within 5 s. A port in \
        use, or an address it cannot listen on: a line on standard error, exit 1. A usage error \
        exits 2.

        Example:
          pusher-channels serve --port 6001 --webhook-url http://127.0.0.1:8080/pusher/webhooks
        """
}

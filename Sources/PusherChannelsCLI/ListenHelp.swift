// SPDX-License-Identifier: MIT

/// The discussion of `pusher-channels listen --help`.
enum ListenHelp {
    static let discussion = """
        Each event is one JSON object on standard output: {"channel", "event", "data", "user_id"?}, \
        with "data" exactly as received. On presence channels, membership changes are printed too: \
        {"channel", "presence": "snapshot"|"added"|"removed", …}. Connection states and errors go to \
        standard error, control characters escaped. Lines on standard input, "CHANNEL EVENT JSON", \
        are sent as client events, in order; while the client's client-event queue is full (the \
        rate limit is 10 a second), standard input is not read further, so a fast producer waits \
        instead of its lines being dropped.

        A channel that fails (an invalid name, authorization refused, a subscription error) is \
        reported on standard error, as "error: CODE: MESSAGE [channel NAME]" followed by what the \
        server or auth endpoint said: " (HTTP STATUS)", and " (type TYPE)" for a server's refusal \
        with a type (soketi, Reverb and serve send {"type":"AuthError","error":…,"status":401}); \
        the other channels keep flowing. While standard output is \
        behind, each consumer holds up to --buffer-limit events; when that is full, --when-full \
        pause-reading (the default) stops reading from the socket until the consumer has caught up \
        (nothing is lost; the server is slowed down, every channel waits), fail reports \
        consumerTooSlow (events were lost) and subscribes again, drop-oldest and drop-newest drop \
        events silently.

        Exit status: 0 after SIGINT or SIGTERM (the connection is closed with a normal close frame), \
        after --count events, or when standard output is closed (`listen | head -n 1`); 1 when the \
        connection fails for good (for example closed with 4001, an unknown app key); 2 for a usage \
        error (an invalid option, options that do not fit together, a file that cannot be read); \
        3 when every channel failed (with --sign-in the user's events keep it running). A second \
        SIGINT or SIGTERM ends the process at once (status 130 or 143).

        Private and presence channels need --auth-endpoint (your backend) or --secret (signs \
        in-process; only where the app secret is safe, never on users' devices). Encrypted channels \
        (private-encrypted-…) print their decrypted data; with --secret they also need --master-key. \
        Decryption failures go to standard error.

        Secrets: arguments are visible to every user of the machine (ps). Give the app secret as \
        --secret-file PATH or in PUSHER_SECRET, the master key as --master-key-file PATH or in \
        PUSHER_MASTER_KEY, and auth headers as --auth-header-file PATH ('Name: value' lines) or in \
        PUSHER_AUTH_HEADER (one header a line). An option and its -file form exclude each other; \
        the variable is read when neither is given; headers from the variable, the file and \
        --auth-header add up (a later one replaces one of the same name). Secrets never appear in \
        the output.

        TLS: --ca-file PEM trusts a private certificate authority as well as the system's, for the \
        WebSocket connection and the auth endpoints. A warning goes to standard error for --no-tls with \
        --cluster, and for an auth endpoint over plain http:// to another machine.

        Endpoints: --host H[:P] may be given more than once (127.0.0.1:6001, [::1]:6001, a bare ::1 \
        has no port; --port is the port of entries without one). The endpoints are tried in order, \
        round robin: an attempt that fails before the connection is established moves the next one \
        (after the usual backoff) to the next endpoint; a connection that drops after it was \
        established reconnects to the same endpoint first. --header 'Name: Value' (repeatable; a \
        later one of the same name replaces an earlier one) is added to the WebSocket upgrade \
        request; Host, Upgrade, Connection, Content-Length, Transfer-Encoding and Sec-WebSocket-* \
        are refused.

        Proxies: --proxy http://[user:pass@]host:port tunnels with HTTP CONNECT (also for wss), \
        --proxy socks5://[user:pass@]host:port goes through SOCKS5 (names resolved by the proxy). \
        Without --proxy, HTTPS_PROXY (or https_proxy), else ALL_PROXY (or all_proxy) is used; \
        NO_PROXY (comma-separated names, .suffix, IP addresses, *) exempts hosts from it, and \
        applies to the environment only. The auth endpoints go through the same proxy unless \
        exempted. A refusing proxy is reported on standard error with its answer (such as HTTP 407 \
        or the SOCKS5 reply), never its password, and the client retries with its backoff.

        --sign-in signs in as a user (with --user-auth-endpoint, or --secret and --user-id) and prints \
        the user's events like channel events (channel "#server-to-user-ID") and watchlist changes as \
        {"watchlist": "online"|"offline", "user_id"}.

        Examples:
          pusher-channels listen --key APP_KEY --cluster eu --channel prices
          pusher-channels listen --key app-key --host 127.0.0.1 --port 6001 --no-tls --channel chat --count 10 --stats
          PUSHER_SECRET=SECRET pusher-channels listen --key KEY --cluster eu --user-id 42 --channel presence-lobby
          pusher-channels listen --key KEY --cluster eu --auth-endpoint https://example.org/pusher/auth \\
              --auth-header-file headers.txt --channel private-orders
          pusher-channels listen --key KEY --cluster eu --secret-file secret.txt --master-key-file master.key \\
              --channel private-encrypted-orders
          pusher-channels listen --key KEY --host pusher.internal --ca-file internal-ca.pem --channel prices
          pusher-channels listen --key KEY --host ws-a.internal --host ws-b.internal:6002 \\
              --header 'Origin: https://app.example' --channel prices
          pusher-channels listen --key KEY --cluster eu --proxy socks5://proxy.internal:1080 --channel prices
          pusher-channels listen --key KEY --cluster eu --secret-file secret.txt --user-id 42 --watch 7 --sign-in
          pusher-channels listen --key KEY --cluster eu --channels-file channels.txt --quiet --stats
        """
}

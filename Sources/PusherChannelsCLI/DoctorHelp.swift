// SPDX-License-Identifier: MIT

/// The discussion of `pusher-channels doctor --help`.
enum DoctorHelp {
    static let discussion = """
        Runs each check and prints one line for it on standard output, in this order: \
        "ok CHECK: what was seen", "warn CHECK: what and why", "fail CHECK: what was seen, what \
        was expected, the likely cause and the fix", or "skip CHECK: the option that would enable \
        it". With --json each line is one JSON object {"check", "status": "ok"|"warn"|"fail"|"skip", \
        "detail"}. Secrets (the app secret, auth header values, proxy credentials) never appear.

        The checks, in order:

        connect: the WebSocket handshake and pusher:connection_established, naming the endpoint \
        and the proxy; 4001 (a key unknown at this cluster or host), TLS failures (--ca-file for a \
        private CA) and refused connections explained.

        api: a signed GET /apps/ID/channels (needs the secret): a secret that does not belong to \
        the key, an unknown key or app id, a 401 "Timestamp expired" with the clock difference.

        auth-private (with --auth-endpoint): the form POST pusher-js sends, with the socket_id of \
        the connection and the --auth-header headers: the status, the content type (an HTML login \
        page), the JSON, the signature (recomputed with the secret: what was signed and what \
        should have been); then a subscription with the answer, for the server's own verdict.

        auth-presence: the same, and channel_data with a user_id. auth-encrypted: the same, and \
        shared_secret, base64 of 32 bytes.

        user-auth (with --user-auth-endpoint): the same for user sign-in: user_data with an id, \
        signed as socket_id::user::user_data; then a sign-in with the answer.

        webhook (with --webhook-url and the secret): a signed test webhook (channel_occupied of \
        the channel doctor-webhook-test) must get a 2xx; the same with a wrong signature must get \
        401 or 403 (a 2xx: your endpoint accepts unsigned webhooks); the same body re-serialised \
        with other whitespace under the original signature must be refused too (a 2xx: it \
        verifies parsed JSON, not the raw body).

        The auth checks ask for --private-channel (private-doctor), --presence-channel \
        (presence-doctor) and --encrypted-channel (private-encrypted-doctor); --skip CHECK leaves \
        a check out (an app without encrypted channels: --skip auth-encrypted).

        Every request, handshake and wait has a 10 s deadline; the whole run ends within 60 s. \
        Exit status: 0 when no check failed (warnings and skips included), 1 when one failed, 2 \
        for a usage error (one line on standard error).

        Example:
          PUSHER_SECRET=SECRET pusher-channels doctor --app-id 1234 --key KEY --cluster eu \\
            --auth-endpoint https://example.com/pusher/auth --auth-header 'Cookie: session=…' \\
            --webhook-url https://example.com/pusher/webhook
        """
}

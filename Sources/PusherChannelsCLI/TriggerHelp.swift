// SPDX-License-Identifier: MIT

/// The discussion of `pusher-channels trigger --help`.
enum TriggerHelp {
    static let discussion = """
        Prints the server's response on one line, as returned, and exits 0: any 2xx is success, \
        whatever its body ({}, {"ok":true}, a proxy's OK). An HTTP error, a redirect included (none \
        is followed), prints its status and body on standard error and exits 1 (a trigger is never \
        retried: a retry could publish the event twice). A usage error (no channel, an invalid channel name, \
        more than 100 channels, more than one channel when one is private-encrypted, an encrypted \
        channel without a master key, data over 10,240 bytes of UTF-8, …) prints one line on \
        standard error and exits 2 before any request. --no-limits lifts Pusher's limits for \
        self-hosted servers.

        A private-encrypted channel's data is encrypted with the master key (--master-key, \
        --master-key-file or PUSHER_MASTER_KEY); it must be the only channel of the trigger.

        --batch reads standard input, one JSON object a line: {"channel", "event", "data", \
        "socket_id"?}, "data" a string (sent as it is) or any JSON value (sent as its JSON text). \
        The events are sent in batches of at most 10, in input order (each encrypted event on its \
        own); one line per batch response on standard output. Standard input is streamed: a \
        batch is checked and sent as soon as its 10th event was read (the last one at the end of \
        input), so an endless producer's events go out as it writes them, and memory stays \
        bounded (lines of at most 1 MiB; reading waits while a batch is sent). A bad line stops \
        the command (exit 2) before its batch is sent; standard error then says which lines were \
        sent ("sent 10 events in 1 batch, those of lines 1 to 10; nothing after line 10"). Any \
        2xx answer counts as published.

        Credentials: --app-id, --key, and the secret as --secret-file PATH or in PUSHER_SECRET \
        (--secret is visible to every user of the machine in ps); a file's trailing newline is \
        ignored. Endpoint: --cluster C (api-C.pusher.com) or --host H [--port P] [--no-tls].

        Examples:
          export PUSHER_SECRET=SECRET
          pusher-channels trigger --app-id 1 --key KEY --cluster eu \\
              --channel prices --event update --data '{"price":10}'
          pusher-channels trigger --app-id 1 --key KEY --cluster eu --batch < events.ndjson
        """
}

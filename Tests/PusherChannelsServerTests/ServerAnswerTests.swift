// SPDX-License-Identifier: MIT

import PusherChannelsServer
import Testing

/// Triggers and batches against the literal answers of real servers, over AsyncHTTPClient: any 2xx
/// is "published", counts are read where the body has them, and nothing is thrown once the server
/// accepted the events (a caller that retried would publish them twice).
@Suite("Answers as servers send them", .timeLimit(.minutes(1)))
struct ServerAnswerTests {
    /// One server's answer to a call.
    struct Answer: Sendable, CustomTestStringConvertible {
        let server: String
        let status: Int
        let body: String
        var testDescription: String { "\(self.server): \(self.status) \(self.body)" }
    }

    /// Answers to a trigger without `info`.
    static let plainTriggerAnswers: [Answer] = [
        Answer(server: "Pusher", status: 200, body: "{}"),
        Answer(server: "Laravel Reverb", status: 200, body: "{}"),
        Answer(server: "soketi", status: 200, body: #"{"ok":true}"#),
        Answer(server: "pusher-fake", status: 200, body: "{}"),
        Answer(server: "a proxy", status: 200, body: "OK"),
        Answer(server: "a proxy", status: 202, body: "Accepted\n"),
        Answer(server: "a proxy", status: 204, body: ""),
        Answer(server: "a proxy", status: 200, body: "<html><body>queued</body></html>"),
    ]

    /// Answers to a batch without `info`.
    static let plainBatchAnswers: [Answer] = [
        Answer(server: "Pusher", status: 200, body: "{}"),
        Answer(server: "Laravel Reverb", status: 200, body: #"{"batch":{}}"#),
        Answer(server: "soketi", status: 200, body: #"{"ok":true}"#),
        Answer(server: "pusher-fake", status: 200, body: "{}"),
        Answer(server: "a proxy", status: 200, body: "OK"),
        Answer(server: "a proxy", status: 204, body: ""),
        Answer(server: "odd", status: 200, body: #"{"batch":"yes"}"#),
        Answer(server: "odd", status: 200, body: #"{"batch":[1,2,3]}"#),
    ]

    /// Runs `call` against a loopback server answering `answer`; returns its result or its error
    /// and the requests the server got.
    static func against<Value: Sendable>(
        _ answer: Answer, timeout: Duration = .seconds(5),
        _ call: @escaping @Sendable (PusherServer) async throws(PusherServerError) -> Value
    ) async throws -> (Result<Value, PusherServerError>, Int) {
        try await LoopbackHTTPServer.withServer(respond: { _ in (answer.status, answer.body) }) { loopback in
            let server = try HTTPErrorTests.server(port: loopback.port, timeout: timeout)
            let result: Result<Value, PusherServerError>
            do throws(PusherServerError) {
                result = .success(try await call(server))
            } catch {
                result = .failure(error)
            }
            return (result, loopback.requests.count)
        }
    }

    @Test("a trigger succeeds with every server's answer, the body kept as returned", arguments: plainTriggerAnswers)
    func plainTrigger(answer: Answer) async throws {
        let (result, requests) = try await Self.against(answer) { (server) throws(PusherServerError) in
            try await server.trigger(channel: "orders", event: "created", data: #"{"id":1}"#)
        }
        let trigger = try result.get()
        #expect(trigger.channels.isEmpty)
        #expect(trigger.responseBody == answer.body)
        #expect(trigger.httpStatus == answer.status)
        #expect(requests == 1)
    }

    @Test("a batch succeeds with every server's answer, without counts", arguments: plainBatchAnswers)
    func plainBatch(answer: Answer) async throws {
        let (result, requests) = try await Self.against(answer) { (server) throws(PusherServerError) in
            try await server.triggerBatch([
                BatchEvent(channel: "a", event: "e", data: "1"), BatchEvent(channel: "b", event: "e", data: "2"),
                BatchEvent(channel: "c", event: "e", data: "3"),
            ])
        }
        let batch = try result.get()
        #expect(batch.events.isEmpty)
        #expect(batch.counts(forEventAt: 0) == nil)
        #expect(batch.responseBody == answer.body)
        #expect(batch.httpStatus == answer.status)
        #expect(requests == 1)
    }

    @Test("send to user succeeds with a proxy's OK")
    func sendToUser() async throws {
        let (result, _) = try await Self.against(Answer(server: "a proxy", status: 200, body: "OK")) {
            (server) throws(PusherServerError) in
            try await server.sendToUser("alice", event: "e", data: "{}")
        }
        #expect(try result.get().responseBody == "OK")
    }

    @Test("a trigger with info reads Pusher's and Reverb's counts by channel")
    func triggerCounts() async throws {
        // Pusher (the HTTP API reference) and Reverb (EventsController) answer alike.
        let body =
            #"{"channels":{"presence-room":{"user_count":2,"subscription_count":3},"news":{"subscription_count":1}}}"#
        let (result, _) = try await Self.against(Answer(server: "Pusher", status: 200, body: body)) {
            (server) throws(PusherServerError) in
            try await server.trigger(
                channels: ["presence-room", "news"], event: "e", data: "{}", info: [.userCount, .subscriptionCount])
        }
        let trigger = try result.get()
        #expect(trigger.channels["presence-room"] == ChannelCounts(subscriptionCount: 3, userCount: 2))
        #expect(trigger.channels["news"] == ChannelCounts(subscriptionCount: 1))
    }

    @Test("a trigger keeps the valid counts of a partly odd answer")
    func triggerPartlyOddCounts() async throws {
        let body = #"{"channels":{"a":{"subscription_count":4},"b":"many","c":{"user_count":"2"}}}"#
        let (result, _) = try await Self.against(Answer(server: "odd", status: 200, body: body)) {
            (server) throws(PusherServerError) in
            try await server.trigger(channels: ["a", "b", "c"], event: "e", data: "{}", info: [.subscriptionCount])
        }
        #expect(try result.get().channels == ["a": ChannelCounts(subscriptionCount: 4)])
    }

    @Test(
        "a batch with info reads one entry per event: Pusher's and Reverb's answers",
        arguments: [
            // Pusher: an entry per event, {} for one that asked for nothing.
            Answer(server: "Pusher", status: 200, body: #"{"batch":[{"subscription_count":3},{},{"user_count":1}]}"#),
            // Reverb: the same shape, every entry an object.
            Answer(
                server: "Laravel Reverb", status: 200,
                body: #"{"batch":[{"subscription_count":3},{},{"user_count":1}]}"#),
        ])
    func batchCounts(answer: Answer) async throws {
        let (result, _) = try await Self.against(answer) { (server) throws(PusherServerError) in
            try await server.triggerBatch([
                BatchEvent(channel: "a", event: "e", data: "1", info: [.subscriptionCount]),
                BatchEvent(channel: "b", event: "e", data: "2"),
                BatchEvent(channel: "presence-c", event: "e", data: "3", info: [.userCount]),
            ])
        }
        let batch = try result.get()
        #expect(batch.events == [ChannelCounts(subscriptionCount: 3), ChannelCounts(), ChannelCounts(userCount: 1)])
        #expect(batch.counts(forEventAt: 2) == ChannelCounts(userCount: 1))
        #expect(batch.counts(forEventAt: 3) == nil)
    }

    @Test("a batch answer with another number of entries than events reports no counts")
    func batchCountMismatch() async throws {
        let (result, _) = try await Self.against(
            Answer(server: "odd", status: 200, body: #"{"batch":[{"subscription_count":3}]}"#)
        ) { (server) throws(PusherServerError) in
            try await server.triggerBatch([
                BatchEvent(channel: "a", event: "e", data: "1"), BatchEvent(channel: "b", event: "e", data: "2"),
            ])
        }
        #expect(try result.get().events.isEmpty)
    }

    @Test("an accepted trigger with an answer over 16 MiB succeeds with its start; a query with one fails")
    func oversizedAnswer() async throws {
        let huge = "{" + String(repeating: " ", count: 16 * 1024 * 1024 + 10) + "}"
        let answer = Answer(server: "odd", status: 200, body: huge)
        // 16 MiB through the loopback took over 5 s with the whole suite on a loaded 2-core machine.
        let (trigger, _) = try await Self.against(answer, timeout: .seconds(60)) { (server) throws(PusherServerError) in
            try await server.trigger(channel: "c", event: "e", data: "{}")
        }
        #expect(try trigger.get().responseBody.utf8.count == 16 * 1024 * 1024)
        let (query, _) = try await Self.against(answer, timeout: .seconds(60)) { (server) throws(PusherServerError) in
            try await server.channels()
        }
        guard case .failure(let error) = query else {
            Issue.record("a cut answer was read as a channel list")
            return
        }
        #expect(error.code == .undecodableResponse)
        #expect(error.message.contains("larger than"))
    }

    @Test("a query still refuses a 2xx body that is not its JSON: nothing was changed, and it has no value")
    func queriesStayStrict() async throws {
        let (result, _) = try await Self.against(Answer(server: "a proxy", status: 200, body: "OK")) {
            (server) throws(PusherServerError) in
            try await server.channels()
        }
        guard case .failure(let error) = result else {
            Issue.record("accepted OK as a channel list")
            return
        }
        #expect(error.code == .undecodableResponse)
        #expect(error.responseBody == "OK")
    }
}

// SPDX-License-Identifier: MIT

import NIOHTTP1
import PusherChannels
import PusherServerEngine

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The Channels HTTP API (`/apps/APP_ID/…`): triggers, batch triggers, channel queries, terminating a
// user's connections. Every request is checked as Pusher checks it before anything happens.
extension FakePusherServer {
    static let rootUsersPrefix = "/users/"

    /// The app id of the HTTP API's paths (``Configuration/appID``).
    public nonisolated var appID: String { self.configuration.appID }

    /// The app secret that signs HTTP API requests (``Configuration/appSecret``; without one every
    /// request gets 401).
    public nonisolated var appSecret: String? { self.configuration.appSecret }

    /// Answers one request under `/apps/` (or `/users/`): 404 for another app, 401 when it is not signed as it
    /// must be, 400 or 413 when its body is invalid or over a limit, otherwise the endpoint's JSON.
    func serveAPI(method: HTTPMethod, uri: String, body: [UInt8]) -> (HTTPResponseStatus, String) {
        let request = APIRequest(method: method, uri: uri, body: body)
        do throws(APIError) {
            let prefix = "/apps/\(self.configuration.appID)/"
            // pusher-http-python 3.3.4 sends terminate_connections to `/users/ID/…`, without the
            // app's prefix; signed and checked the same way, it means this app.
            let atRoot = request.path.hasPrefix(Self.rootUsersPrefix)
            guard request.path.hasPrefix(prefix) || atRoot else { throw APIError(.notFound, "Unknown app") }
            try request.authenticate(
                key: self.configuration.appKey, secret: self.configuration.appSecret,
                now: Int(Date().timeIntervalSince1970))
            let route = request.path.dropFirst(atRoot ? 1 : prefix.count).split(
                separator: "/", omittingEmptySubsequences: false
            )
            .map { APIRequest.decoded($0) }
            switch (method, route.count, route[0]) {
            case (.POST, 1, "events"):
                return (.ok, try self.triggerEvents(Self.json(body)))
            case (.POST, 1, "batch_events"):
                return (.ok, try self.triggerBatch(Self.json(body)))
            case (.GET, 1, "channels"):
                return (.ok, try self.channels(prefix: request.value("filter_by_prefix"), info: request.value("info")))
            case (.GET, 2, "channels"):
                return (.ok, try self.channel(route[1], info: request.value("info")))
            case (.GET, 3, "channels") where route[2] == "users":
                return (.ok, try self.users(of: route[1]))
            case (.POST, 3, "users") where route[2] == "terminate_connections" && !route[1].isEmpty:
                self.perform(self.engine.terminateConnections(of: route[1]))
                return (.ok, "{}")
            default:
                throw APIError(.notFound, "Not found: \(method.rawValue) \(request.path)")
            }
        } catch {
            return (error.status, error.message)
        }
    }

    private static func json(_ body: [UInt8]) throws(APIError) -> JSONValue {
        do {
            return try JSONValue(parsing: String(decoding: body, as: UTF8.self))
        } catch {
            throw APIError(.badRequest, "Invalid JSON body: \(error.message)")
        }
    }

    private func triggerEvents(_ body: JSONValue) throws(APIError) -> String {
        let event = try APIEvent(body, limits: self.configuration.triggerLimits, inBatch: false)
        for channel in event.channels { self.deliver(event, on: channel) }
        guard !event.info.isEmpty else { return "{}" }
        let channels = Dictionary(
            event.channels.map { ($0, self.attributes(event.info, of: $0)) }, uniquingKeysWith: { first, _ in first })
        return JSONValue.object(["channels": .object(channels)]).jsonText
    }

    private func triggerBatch(_ body: JSONValue) throws(APIError) -> String {
        guard case .array(let items)? = body["batch"] else {
            throw APIError(.badRequest, "Missing parameter: batch must be an array of events")
        }
        if let limit = self.configuration.triggerLimits.eventsPerBatch, items.count > limit {
            throw APIError(.badRequest, "Batch too large: \(items.count) events, the limit is \(limit)")
        }
        var events: [APIEvent] = []
        for item in items { events.append(try APIEvent(item, limits: self.configuration.triggerLimits, inBatch: true)) }
        for event in events { self.deliver(event, on: event.channels[0]) }
        guard events.contains(where: { !$0.info.isEmpty }) else { return "{}" }
        let results = events.map { self.attributes($0.info, of: $0.channels[0]) }
        return JSONValue.object(["batch": .array(results)]).jsonText
    }

    /// Sends an event as it came (encrypted data is relayed as the publisher sealed it) to the
    /// channel's subscribers, or for `#server-to-user-ID` to the connections signed in as that
    /// user; never to the connection whose socket id the request excluded.
    private func deliver(_ event: APIEvent, on channel: String) {
        if channel.hasPrefix(ServerEngine.userChannelPrefix) {
            let userID = String(channel.dropFirst(ServerEngine.userChannelPrefix.count))
            self.perform(
                self.engine.publishToUser(userID, event: event.name, data: event.data, excluding: event.socketID))
        } else {
            self.perform(
                self.engine.publish(channel: channel, event: event.name, data: event.data, excluding: event.socketID)
                    .actions)
        }
    }

    /// The requested attributes of a channel, from the server's state.
    private func attributes(_ info: [String], of channel: String) -> JSONValue {
        var attributes: [String: JSONValue] = [:]
        if info.contains("subscription_count") {
            attributes["subscription_count"] = .number(String(self.engine.subscriberCount(of: channel)))
        }
        if info.contains("user_count") {
            attributes["user_count"] = .number(String(self.engine.users(of: channel).count))
        }
        return .object(attributes)
    }

    private func channels(prefix: String?, info: String?) throws(APIError) -> String {
        var attributes: [String] = []
        if let info { attributes = try APIEvent.attributes(info, allowed: ["user_count"]) }
        if !attributes.isEmpty, prefix?.hasPrefix("presence-") != true {
            throw APIError(.badRequest, "user_count may only be requested with filter_by_prefix=presence-")
        }
        var channels: [String: JSONValue] = [:]
        for channel in self.engine.occupiedChannels where channel.hasPrefix(prefix ?? "") {
            channels[channel] = self.attributes(attributes, of: channel)
        }
        return JSONValue.object(["channels": .object(channels)]).jsonText
    }

    private func channel(_ name: String, info: String?) throws(APIError) -> String {
        guard (try? ChannelName(validating: name)) != nil else {
            throw APIError(.badRequest, "Invalid channel name: \(name)")
        }
        var requested: [String] = []
        if let info { requested = try APIEvent.attributes(info, allowed: ["subscription_count", "user_count"]) }
        if requested.contains("user_count"), ChannelName.kind(of: name) != .presence {
            throw APIError(.badRequest, "Cannot retrieve the user count of a non-presence channel: \(name)")
        }
        guard case .object(var fields) = self.attributes(requested, of: name) else { return "{}" }
        fields["occupied"] = .bool(self.engine.subscriberCount(of: name) > 0)
        return JSONValue.object(fields).jsonText
    }

    private func users(of channel: String) throws(APIError) -> String {
        guard (try? ChannelName(validating: channel))?.kind == .presence else {
            throw APIError(.badRequest, "Users can only be retrieved for presence channels: \(channel)")
        }
        let ids = self.engine.users(of: channel)
        return JSONValue.object(["users": .array(ids.map { .object(["id": .string($0)]) })]).jsonText
    }

    /// An HTTP API request the fake server refuses: the status and the message it answers with.
    struct APIError: Error {
        let status: HTTPResponseStatus
        let message: String

        init(_ status: HTTPResponseStatus, _ message: String) {
            self.status = status
            self.message = message
        }
    }
}

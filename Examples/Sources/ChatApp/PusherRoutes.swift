// SPDX-License-Identifier: MIT

import Hummingbird
import Logging
import PusherChannelsServer

/// The three endpoints of a Pusher app's backend: channel authorization and user authentication
/// (called by your clients: pusher-js, the mobile SDKs, `PusherClient`), and webhooks (called by
/// Pusher). Each hands the request's bytes to one `PusherServer` call, which answers with the
/// status, content type and body to send.
struct PusherRoutes: Sendable {
    /// The most an authorization form may hold: a socket id and a channel name fit in far less.
    static let maximumFormBytes = 4_096

    let pusher: PusherServer
    let feed: ActivityFeed
    let logger: Logger

    func add(to router: Router<some RequestContext>) {
        router.post("pusher/auth") { request, _ in try await self.authorizeChannel(request) }
        router.post("pusher/user-auth") { request, _ in try await self.authenticateUser(request) }
        router.post("pusher/webhooks") { request, context in try await self.receiveWebhook(request, context: context) }
    }

    /// `POST /pusher/auth`: may the signed-in user subscribe to this private, presence or
    /// private-encrypted channel? Anyone signed in may here; decide with your own rules.
    func authorizeChannel(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: Self.maximumFormBytes)
        let user = SignedInUser(request)
        let answer = await self.pusher.channelAuthorizationResponse(body: body) { authorization in
            guard let user else { return .deny }
            if authorization.channelName?.hasPrefix("presence-") == true {
                // Presence channels show each member, with the info you choose.
                return .allowMember(PresenceMember(userID: user.id, userInfo: ["name": .string(user.id)]))
            }
            return .allow
        }
        return Response(answer)
    }

    /// `POST /pusher/user-auth`: the client signs in (`pusher:signin`) as the session's user.
    func authenticateUser(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: Self.maximumFormBytes)
        let user = SignedInUser(request)
        let answer = await self.pusher.userAuthenticationResponse(body: body) { _ in
            user.map { PusherUser(id: $0.id) }
        }
        return Response(answer)
    }

    /// `POST /pusher/webhooks`: Pusher's webhooks, verified against the app's key and secret
    /// (401 otherwise) before any event is read.
    func receiveWebhook(_ request: Request, context: some RequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        let answer = await self.pusher.webhookResponse(headerFields: request.headers, body: body) {
            webhook in
            for event in webhook.events {
                self.logger.info("webhook", metadata: ["kind": "\(event.kind)", "channel": "\(event.channel ?? "")"])
                self.feed.record(.webhook(event))
            }
        }
        return Response(answer)
    }
}

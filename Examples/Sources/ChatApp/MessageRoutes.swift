// SPDX-License-Identifier: MIT

import Hummingbird
import Logging
import PusherChannelsServer

/// `POST /messages`: publishes a signed-in user's message as a `message` event. On a
/// `private-encrypted-` channel `PusherServer` encrypts it with the app's master key first, so
/// Pusher never sees the text.
struct MessageRoutes: Sendable {
    let pusher: PusherServer
    let logger: Logger

    func add(to router: Router<some RequestContext>) {
        router.post("messages") { request, context in try await self.publish(request, context: context) }
    }

    func publish(_ request: Request, context: some RequestContext) async throws -> HTTPResponse.Status {
        guard let user = SignedInUser(request) else { throw HTTPError(.unauthorized) }
        let message = try await request.decode(as: ChatMessage.self, context: context)
        let event = PublishedMessage(from: user.id, text: message.text)
        do {
            try await self.pusher.trigger(
                channel: message.channel, event: "message", data: event, socketID: message.socketID)
        } catch let error where error.code == .invalidArgument || error.code == .limitExceeded {
            // Checked before anything is sent: a bad channel name, socket id, or too much data.
            throw HTTPError(.badRequest, message: error.message)
        } catch {
            // Pusher refused it, or did not answer in time (it may have published it then).
            self.logger.error("publishing failed", metadata: ["error": "\(error)"])
            throw HTTPError(.badGateway)
        }
        return .noContent
    }
}

// SPDX-License-Identifier: MIT

import Hummingbird

/// Who sent a request. A stand-in for your app's session or authentication middleware: here the
/// user is whoever `Authorization: Bearer USER-ID` names, which no real app should trust.
struct SignedInUser: Sendable {
    var id: String

    init?(_ request: Request) {
        guard let value = request.headers[.authorization], value.hasPrefix("Bearer ") else { return nil }
        let id = value.dropFirst("Bearer ".count)
        guard !id.isEmpty else { return nil }
        self.id = String(id)
    }
}

// SPDX-License-Identifier: MIT

/// Why a check cannot run with the options given: the `skip` finding naming the option that would
/// enable it, known before any request (so it is printed even when the run ends at its deadline).
enum DoctorSkip {
    static func finding(_ check: DoctorCheck, settings: DoctorSettings) -> DoctorFinding? {
        if settings.skipped.contains(check) { return .skip(check, "skipped with --skip \(check.rawValue)") }
        let secret = "the app secret (--secret, --secret-file or PUSHER_SECRET)"
        switch check {
        case .connect:
            return nil
        case .api:
            return settings.secret == nil ? .skip(.api, "give \(secret) to call the HTTP API") : nil
        case .authPrivate, .authPresence, .authEncrypted:
            guard settings.authEndpoint == nil else { return nil }
            let channel =
                check == .authPrivate
                ? settings.privateChannel
                : check == .authPresence ? settings.presenceChannel : settings.encryptedChannel
            return .skip(check, "give --auth-endpoint (your backend's auth URL) to check \(channel)")
        case .userAuth:
            return settings.userAuthEndpoint == nil
                ? .skip(.userAuth, "give --user-auth-endpoint (your backend's user-auth URL) to check user sign-in")
                : nil
        case .webhook:
            if settings.webhookURL == nil {
                return .skip(.webhook, "give --webhook-url (your webhook endpoint) to check that it verifies webhooks")
            }
            return settings.secret == nil ? .skip(.webhook, "give \(secret) to sign the test webhooks") : nil
        }
    }
}

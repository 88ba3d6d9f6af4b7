// SPDX-License-Identifier: MIT

extension FakePusherServer {
    /// How the server refuses a subscription or a sign-in whose signature does not match the app
    /// secret.
    public enum AuthRefusal: Sendable, Hashable {
        /// As Pusher answers: `pusher:error` "Invalid signature: …" (no code) for a subscription, and
        /// the same with code 4009 for a sign-in.
        case pusherError
        /// As soketi and Laravel Reverb answer a subscription: `pusher:subscription_error` on that
        /// channel with `{"type":"AuthError","error":…,"status":401}`; a sign-in still gets
        /// `pusher:error` with code 4009. The connection stays open either way.
        case subscriptionError
    }
}

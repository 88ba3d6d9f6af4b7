// SPDX-License-Identifier: MIT

/// Your app's decision on one channel authorization request, returned from the `decide` closure of
/// ``PusherServer/channelAuthorizationResponse(body:decide:)``.
public enum ChannelAuthorizationDecision: Sendable, Hashable {
    /// Authorize a `private-` or `private-encrypted-` channel. On a `presence-` channel this is a
    /// refusal (403): a presence subscription needs to know who the member is.
    case allow
    /// Authorize a `presence-` channel as this member (its `user_id` and `user_info`); on other
    /// channels the member is ignored.
    case allowMember(PresenceMember)
    /// Refuse: the endpoint answers 403.
    case deny
}

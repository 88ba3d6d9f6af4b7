// SPDX-License-Identifier: MIT

// The protocol engine's public types (ConnectionState, PusherError, ChannelName, Backoff, …) are
// part of this module's API.
@_exported import PusherCore

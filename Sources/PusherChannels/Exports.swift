// SPDX-License-Identifier: MIT

// The protocol engine's public types (ConnectionState, PusherError, ChannelName, Backoff, …) and the
// shared signing and encryption helpers (PusherSignature, EncryptionMasterKey) are part of this
// module's API.
@_exported import PusherCore
@_exported import PusherCrypto

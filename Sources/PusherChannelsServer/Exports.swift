// SPDX-License-Identifier: MIT

// The types the server side shares with the client (PusherError, ChannelName, PresenceMember,
// JSONValue, ChannelAuthorization, …) and the one implementation of the protocol's signatures
// (PusherSignature, EncryptionMasterKey) are part of this module's API.
@_exported import PusherCore
@_exported import PusherCrypto

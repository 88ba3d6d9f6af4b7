// SPDX-License-Identifier: MIT

// The vocabulary the server side shares with the client, and no more: the values its API takes and
// returns (presence members, JSON values, the authorization and authentication answers) and the one
// implementation of the protocol's signatures. The client's own types (ConnectionState, Backoff,
// PusherError, ChannelEvent, …) stay out of a server user's namespace; import PusherChannels for
// them. The files of this module that use more of PusherCore or PusherCrypto import it themselves.
@_exported import struct PusherCore.ChannelAuthorization
@_exported import enum PusherCore.JSONValue
@_exported import struct PusherCore.PresenceMember
@_exported import struct PusherCore.UserAuthentication
@_exported import enum PusherCrypto.PusherSignature

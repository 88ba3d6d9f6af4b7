// SPDX-License-Identifier: MIT
//
// The example app, configured from the environment:
//   PUSHER_URL         http(s)://KEY:SECRET@HOST[:PORT]/apps/APP_ID; by default the local server
//                      `pusher-channels serve` starts with its defaults:
//                      http://app-key:app-secret@127.0.0.1:6001/apps/1
//   PUSHER_CLUSTER     for Pusher's hosted service: the cluster the app's PusherClient connects to
//   PUSHER_MASTER_KEY  base64 of 32 bytes, for private-encrypted channels
//   PORT               where the app listens (8080)

import ChatApp
import Hummingbird
import Logging
import PusherChannels
import PusherChannelsServer

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

let environment = ProcessInfo.processInfo.environment
var pusher = try PusherServerConfiguration(
    url: environment["PUSHER_URL"] ?? "http://app-key:app-secret@127.0.0.1:6001/apps/1")
if let masterKey = environment["PUSHER_MASTER_KEY"] {
    pusher.encryptionMasterKey = try .init(base64: masterKey)
}
let client =
    environment["PUSHER_CLUSTER"].map { PusherClientConfiguration(cluster: $0) }
    ?? PusherClientConfiguration(host: pusher.host, port: pusher.port, useTLS: pusher.useTLS)
let settings = AppSettings(pusher: pusher, client: client, port: Int(environment["PORT"] ?? "") ?? 8080)

var logger = Logger(label: "ChatServer")
logger.logLevel = .info
try await buildApplication(settings, logger: logger).runService()

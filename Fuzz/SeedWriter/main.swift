// SPDX-License-Identifier: MIT
// Writes the generated seed corpora (Fuzz/Corpus/<target>/<name>; other files there are kept)
// deterministically: realistic frames, and encrypted payloads sealed under ``FuzzKey`` with fixed
// nonces. Run through `scripts/fuzz --seeds`; built like a fuzz target, it does its work in
// libFuzzer's initialization hook and exits.

import Foundation

@testable import PusherCore

@_cdecl("LLVMFuzzerInitialize")
func writeSeeds(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    let root = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "Fuzz/Corpus")
    let corpora = [
        "scanner": Seeds.scanner, "engine": Seeds.engine, "encrypted": Seeds.encrypted, "secretbox": Seeds.secretbox,
    ]
    for (target, seeds) in corpora.sorted(by: { $0.key < $1.key }) {
        let directory = root.appendingPathComponent(target)
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, bytes) in seeds {
            try! Data(bytes).write(to: directory.appendingPathComponent(name))
        }
        print("seeds: \(seeds.count) in \(directory.path)")
    }
    exit(0)
}

@_cdecl("LLVMFuzzerTestOneInput")
func unused(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt { 0 }

/// Seed-building helpers shared by the corpora.
enum Seeds {
    /// A frame as a server sends it (data as a JSON string).
    static func frame(_ event: String, _ channel: String? = nil, _ data: String? = nil, userID: String? = nil) -> String
    {
        PusherMessage(event: event, channel: channel, data: data, userID: userID).serializedWithStringData
    }

    /// `FuzzKey.plaintexts[index]` sealed with a nonce of 24 `nonceByte`s, as an event's data.
    static func sealed(_ index: Int, nonceByte: UInt8 = 1) -> String {
        let nonce = [UInt8](repeating: nonceByte, count: SecretBox.nonceLength)
        guard let data = EncryptedPayload.seal(FuzzKey.plaintexts[index], key: FuzzKey.key, nonce: nonce) else {
            fatalError("libsodium is missing")
        }
        return data
    }

    /// Named seeds from texts: `name` plus the text's position.
    static func named(_ prefix: String, _ texts: [String]) -> [(String, [UInt8])] {
        texts.enumerated().map { (prefix + ($0.offset < 10 ? "-0" : "-") + String($0.offset), Array($0.element.utf8)) }
    }
}

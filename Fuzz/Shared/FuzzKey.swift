// SPDX-License-Identifier: MIT

/// The fixed secretbox key of the fuzz targets and of the encrypted seeds, and every plaintext the
/// seeds were sealed with: without the key nothing else can pass the MAC, so a decrypted event
/// must carry one of these.
enum FuzzKey {
    /// Bytes 0, 1, …, 31.
    static let key: [UInt8] = Array(0..<32)
    /// `key` as an authorization's `shared_secret` (base64).
    static let sharedSecret = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    /// A key that opens nothing the seeds hold.
    static let wrongKey: [UInt8] = Array(repeating: 7, count: 32)

    static let plaintexts: [String] = [
        #"{"price":1.5}"#,
        "hello",
        #"{"text":"h\u00e9llo \ud83d\ude00","n":[1,2,{"x":null}]}"#,
        "ünïcødé ✓ 😀",
        "",
        #"["a",true,false,null,-0.5e10]"#,
    ]
}

// SPDX-License-Identifier: MIT
// libFuzzer target: encrypted payloads. The input is an event's data: its `{"nonce", "ciphertext"}`
// fields are read and opened with libsodium's secretbox under the fixed key (only the seeds'
// plaintexts may come out) and under a wrong key (nothing may); it is also sealed and opened back,
// and read as a shared secret.

@testable import PusherCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzEncrypted(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let text = String(decoding: bytes, as: UTF8.self)
    let message = PusherMessage(event: "secret", channel: "private-encrypted-vault", data: text)
    let fields = try? EncryptedFields(parsing: text)
    switch EncryptedPayload.open(message, key: FuzzKey.key) {
    case .plaintext(let plaintext):
        check(fields != nil, "opened data without encrypted fields")
        check(FuzzKey.plaintexts.contains(plaintext), "opened a plaintext nobody sealed: \(plaintext)")
    case .malformed, .wrongKey:
        break
    }
    if case .plaintext = EncryptedPayload.open(message, key: FuzzKey.wrongKey) { fail("the wrong key opened the data") }
    // Raw bytes as nonce and box: only a forgery would open.
    if bytes.count >= SecretBox.nonceLength + SecretBox.macLength {
        let nonce = Array(bytes.prefix(SecretBox.nonceLength))
        let box = Array(bytes.dropFirst(SecretBox.nonceLength))
        check(SecretBox.open(box, nonce: nonce, key: FuzzKey.key) == nil, "secretbox opened unsealed bytes")
        check(SecretBox.openText(box, nonce: nonce, key: FuzzKey.key) == .wrongKey, "secretbox opened unsealed text")
    }
    // Sealing round-trips; text that is not UTF-8 is refused once opened.
    let nonce = [UInt8](repeating: UInt8(truncatingIfNeeded: count), count: SecretBox.nonceLength)
    guard let sealed = SecretBox.seal(bytes, nonce: nonce, key: FuzzKey.key) else { fail("cannot seal") }
    check(SecretBox.open(sealed, nonce: nonce, key: FuzzKey.key) == bytes, "seal and open do not round-trip")
    let isUTF8 = String(validating: bytes, as: UTF8.self) != nil
    check(
        SecretBox.openText(sealed, nonce: nonce, key: FuzzKey.key)
            == (isUTF8 ? .plaintext(text) : .malformed("the plaintext is not UTF-8")), "openText differs")
    if isUTF8, let data = EncryptedPayload.seal(text, key: FuzzKey.key, nonce: nonce) {
        check(
            EncryptedPayload.open(PusherMessage(event: "e", data: data), key: FuzzKey.key) == .plaintext(text),
            "sealed data does not open")
    }
    if let key = EncryptedPayload.key(fromSharedSecret: text) {
        check(key.count == SecretBox.keyLength, "a key of \(key.count) bytes")
    }
    return 0
}

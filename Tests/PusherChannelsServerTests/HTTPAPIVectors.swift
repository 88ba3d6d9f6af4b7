// SPDX-License-Identifier: MIT

import Foundation

/// The known answers of Vectors/pusher-http-api.json (a copy of ../shared/vectors/pusher-http-api.json,
/// made with the official Python server library), read at test time.
struct HTTPAPIVectors: Decodable {
    struct Credentials: Decodable {
        let appID: String
        let key: String
        let secret: String
        let encryptionMasterKeyBase64: String
        let authTimestamp: String

        enum CodingKeys: String, CodingKey {
            case appID = "app_id"
            case key, secret
            case encryptionMasterKeyBase64 = "encryption_master_key_base64"
            case authTimestamp = "auth_timestamp"
        }
    }

    struct Request: Decodable {
        let id: String
        let method: String
        let path: String
        let body: String
        let bodyMD5: String
        let queryParams: [String: String]
        let stringToSign: String
        let authSignature: String
        let queryString: String
        // Encrypted requests only.
        let channel: String?
        let plaintext: String?
        let nonceB64: String?
        let ciphertextB64: String?
        let wireData: String?

        enum CodingKeys: String, CodingKey {
            case id, method, path, body, channel, plaintext
            case bodyMD5 = "body_md5"
            case queryParams = "query_params"
            case stringToSign = "string_to_sign"
            case authSignature = "auth_signature"
            case queryString = "query_string"
            case nonceB64 = "nonce_b64"
            case ciphertextB64 = "ciphertext_b64"
            case wireData = "wire_data"
        }
    }

    struct DocsCrosscheck: Decodable {
        let appID: String
        let key: String
        let secret: String
        let method: String
        let path: String
        let body: String
        let authTimestamp: String
        let bodyMD5: String
        let stringToSign: String
        let authSignature: String

        enum CodingKeys: String, CodingKey {
            case appID = "app_id"
            case key, secret, method, path, body
            case authTimestamp = "auth_timestamp"
            case bodyMD5 = "body_md5"
            case stringToSign = "string_to_sign"
            case authSignature = "auth_signature"
        }
    }

    let credentials: Credentials
    let docsCrosscheck: DocsCrosscheck
    let requests: [Request]
    let encryptedRequests: [Request]

    enum CodingKeys: String, CodingKey {
        case credentials, requests
        case docsCrosscheck = "docs_crosscheck"
        case encryptedRequests = "encrypted_requests"
    }

    /// The copy next to this file.
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Vectors/pusher-http-api.json")
    /// The shared original, where the package is checked out beside ../shared (not in a fresh clone).
    static let sharedURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/vectors/pusher-http-api.json").standardizedFileURL

    static func load() throws -> HTTPAPIVectors {
        try JSONDecoder().decode(HTTPAPIVectors.self, from: Data(contentsOf: Self.url))
    }
}

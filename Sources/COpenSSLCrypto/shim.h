// SPDX-License-Identifier: MIT
// The system's libcrypto (OpenSSL 3), for HMAC-SHA256, SHA-256 and MD5 (the HTTP API's body_md5).
// Linux only; Apple platforms use CryptoKit.
#ifndef C_OPENSSL_CRYPTO_SHIM_H
#define C_OPENSSL_CRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#endif

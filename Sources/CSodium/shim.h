// SPDX-License-Identifier: MIT
// The system's libsodium, for NaCl secretbox (XSalsa20-Poly1305) on private-encrypted channels.
#ifndef C_SODIUM_SHIM_H
#define C_SODIUM_SHIM_H
#include <sodium.h>
#endif

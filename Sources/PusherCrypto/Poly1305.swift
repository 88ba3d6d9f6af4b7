// SPDX-License-Identifier: MIT

/// The Poly1305 one-time authenticator (D. J. Bernstein; RFC 8439 §2.5), with three 44/44/42-bit limbs
/// and 64 × 64 → 128-bit products (the layout of poly1305-donna-64). Branch-free: the final reduction
/// selects with masks, and nothing depends on the key or the message but the values computed.
struct Poly1305 {
    private static let mask44: UInt64 = 0xfff_ffff_ffff
    private static let mask42: UInt64 = 0x3ff_ffff_ffff

    private let r0: UInt64
    private let r1: UInt64
    private let r2: UInt64
    /// The key's second half, added at the end.
    private let pad0: UInt64
    private let pad1: UInt64
    /// The accumulator.
    private var h0: UInt64 = 0
    private var h1: UInt64 = 0
    private var h2: UInt64 = 0

    /// A one-time key of 32 bytes given as four little-endian 64-bit words: `r` (clamped here), then `s`.
    init(r: (UInt64, UInt64), s: (UInt64, UInt64)) {
        self.r0 = r.0 & 0xffc_0fff_ffff
        self.r1 = ((r.0 &>> 44) | (r.1 &<< 20)) & 0xfff_ffc0_ffff
        self.r2 = (r.1 &>> 24) & 0x00f_ffff_fc0f
        self.pad0 = s.0
        self.pad1 = s.1
    }

    /// Authenticates the whole message at `bytes` (`count` bytes; the only call before ``tag()``).
    mutating func update(_ bytes: UnsafeRawPointer?, count: Int) {
        guard let bytes, count > 0 else { return }
        var offset = 0
        while count &- offset >= 16 {
            self.block(
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)),
                final: 1 &<< 40)
            offset &+= 16
        }
        guard offset < count else { return }
        // The last partial block: its bytes, a 1, zeros; no 2^128 bit.
        var last: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &last) { last in
            let remaining = count &- offset
            last.baseAddress!.copyMemory(from: bytes + offset, byteCount: remaining)
            last[remaining] = 1
        }
        self.block(UInt64(littleEndian: last.0), UInt64(littleEndian: last.1), final: 0)
    }

    /// h = (h + block) · r mod 2^130 − 5; `final` is the block's 2^128 bit, as bit 40 of the top limb.
    @inline(__always)
    private mutating func block(_ t0: UInt64, _ t1: UInt64, final: UInt64) {
        let s1 = self.r1 &* (5 &<< 2)
        let s2 = self.r2 &* (5 &<< 2)
        var h0 = self.h0 &+ (t0 & Self.mask44)
        var h1 = self.h1 &+ (((t0 &>> 44) | (t1 &<< 20)) & Self.mask44)
        var h2 = self.h2 &+ (((t1 &>> 24) & Self.mask42) | final)
        let d0 = Self.product(h0, self.r0) &+ Self.product(h1, s2) &+ Self.product(h2, s1)
        var d1 = Self.product(h0, self.r1) &+ Self.product(h1, self.r0) &+ Self.product(h2, s2)
        var d2 = Self.product(h0, self.r2) &+ Self.product(h1, self.r1) &+ Self.product(h2, self.r0)
        var carry = UInt64(truncatingIfNeeded: d0 &>> 44)
        h0 = UInt64(truncatingIfNeeded: d0) & Self.mask44
        d1 &+= UInt128(carry)
        carry = UInt64(truncatingIfNeeded: d1 &>> 44)
        h1 = UInt64(truncatingIfNeeded: d1) & Self.mask44
        d2 &+= UInt128(carry)
        carry = UInt64(truncatingIfNeeded: d2 &>> 42)
        h2 = UInt64(truncatingIfNeeded: d2) & Self.mask42
        h0 &+= carry &* 5
        carry = h0 &>> 44
        h0 &= Self.mask44
        h1 &+= carry
        (self.h0, self.h1, self.h2) = (h0, h1, h2)
    }

    @inline(__always)
    private static func product(_ a: UInt64, _ b: UInt64) -> UInt128 {
        UInt128(a) &* UInt128(b)
    }

    /// The 16-byte tag as two little-endian 64-bit words: h fully reduced mod 2^130 − 5, plus `s`, mod 2^128.
    func tag() -> (UInt64, UInt64) {
        var (h0, h1, h2) = (self.h0, self.h1, self.h2)
        var carry = h1 &>> 44
        h1 &= Self.mask44
        h2 &+= carry
        carry = h2 &>> 42
        h2 &= Self.mask42
        h0 &+= carry &* 5
        carry = h0 &>> 44
        h0 &= Self.mask44
        h1 &+= carry
        carry = h1 &>> 44
        h1 &= Self.mask44
        h2 &+= carry
        carry = h2 &>> 42
        h2 &= Self.mask42
        h0 &+= carry &* 5
        carry = h0 &>> 44
        h0 &= Self.mask44
        h1 &+= carry

        // g = h + 5 − 2^130; keep h when g is negative (h < p), else g: selected by mask, not branch.
        var g0 = h0 &+ 5
        carry = g0 &>> 44
        g0 &= Self.mask44
        var g1 = h1 &+ carry
        carry = g1 &>> 44
        g1 &= Self.mask44
        var g2 = h2 &+ carry &- (1 &<< 42)
        let keepG = (g2 &>> 63) &- 1  // all ones when g2 did not go negative
        g0 &= keepG
        g1 &= keepG
        g2 &= keepG
        let keepH = ~keepG
        h0 = (h0 & keepH) | g0
        h1 = (h1 & keepH) | g1
        h2 = (h2 & keepH) | g2

        // h + s mod 2^128.
        h0 &+= self.pad0 & Self.mask44
        carry = h0 &>> 44
        h0 &= Self.mask44
        h1 &+= (((self.pad0 &>> 44) | (self.pad1 &<< 20)) & Self.mask44) &+ carry
        carry = h1 &>> 44
        h1 &= Self.mask44
        h2 &+= ((self.pad1 &>> 24) & Self.mask42) &+ carry
        h2 &= Self.mask42
        return (h0 | (h1 &<< 44), (h1 &>> 20) | (h2 &<< 24))
    }
}

// SPDX-License-Identifier: MIT

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback TCP port that refuses connections for as long as this value is kept: a socket bound
/// to it that does not listen. Unlike a port that was free a moment ago, no other test's server
/// can take it meanwhile (tests run in parallel).
package final class RefusingPort: Sendable {
    package let port: Int
    private let socket: Int32

    package init() throws {
        #if canImport(Darwin)
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #elseif canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Musl.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw RefusingPortError() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else {
            close(socket)
            throw RefusingPortError()
        }
        self.socket = socket
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(self.socket)
    }
}

package struct RefusingPortError: Error {}

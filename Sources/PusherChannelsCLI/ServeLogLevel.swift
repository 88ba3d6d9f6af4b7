// SPDX-License-Identifier: MIT

import ArgumentParser
import Logging

/// `serve --log-level`: what `serve` writes on standard error.
enum ServeLogLevel: String, ExpressibleByArgument, CaseIterable {
    case none
    case error
    case info
    case debug

    /// The level of the server's logger; nil logs nothing.
    var loggerLevel: Logger.Level? {
        switch self {
        case .none: nil
        case .error: .error
        case .info: .info
        case .debug: .debug
        }
    }
}

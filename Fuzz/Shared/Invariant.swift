// SPDX-License-Identifier: MIT

/// Stops the fuzzer with `message` (a crash it records) when `condition` does not hold.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}

func fail(_ message: String) -> Never {
    fatalError("invariant violated: \(message)")
}

// SPDX-License-Identifier: MIT

extension StringProtocol {
    /// The text without the whitespace (newlines included) at either end.
    func trimmingWhitespace() -> String {
        guard let first = self.firstIndex(where: { !$0.isWhitespace }),
            let last = self.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}

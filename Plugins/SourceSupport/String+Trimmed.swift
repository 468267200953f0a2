import Foundation

extension String {
    /// The text without white space or line breaks around it.
    public var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

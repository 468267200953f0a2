import Foundation

/// Summaries and output of measurements.
enum Statistics {
    /// The median of `samples` (the upper one of an even count); 0 for no samples.
    static func median(_ samples: [Double]) -> Double {
        samples.isEmpty ? 0 : samples.sorted()[samples.count / 2]
    }

    /// Prints `value` as one line of JSON with sorted keys.
    static func printJSON(_ value: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}

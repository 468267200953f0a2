import Foundation

/// How the benchmarks report: one JSON line on standard output.
enum BenchmarkOutput {
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

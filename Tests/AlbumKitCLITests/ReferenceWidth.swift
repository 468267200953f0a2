import Foundation

/// Display widths as Python's `wcwidth` (the reference implementation of wcwidth's rules)
/// measures them: an outside judge of what the terminal shows.
enum ReferenceWidth {
    static func of(_ lines: [String]) throws -> [Int] {
        let script = "import sys, json, wcwidth; print(json.dumps([wcwidth.wcswidth(l) for l in json.load(sys.stdin)]))"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: lines))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONSerialization.jsonObject(with: data) as? [Int] ?? []
    }
}

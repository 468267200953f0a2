import Foundation
import Testing

/// The fast paths stay behind one wall (DESIGN 16): nothing in `Sources/AlbumKit/FastPaths`
/// is public, and a port names one of its types only in a declaration of its own that is
/// `package`, `fileprivate` or `private`, so that a backend, stage or exporter written outside
/// the repository never meets a scratch file.
@Suite struct FastPathWallTests {
    /// The repository's `Sources/AlbumKit`, found from this file.
    private static let core = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/AlbumKit")

    /// The Swift files of `folder`, by name, with their lines.
    private static func lines(of folder: String) throws -> [(file: String, line: String)] {
        let url = core.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".swift") }.sorted().flatMap { name in
            try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map { (name, String($0)) }
        }
    }

    /// A declaration's line that is public (`public` or `open` before a declaration, not a
    /// variable named `open` being set), comments aside.
    private static func isPublic(_ line: String) -> Bool {
        let code = line.trimmingCharacters(in: .whitespaces)
        guard !code.hasPrefix("//") else { return false }
        return code.range(of: #"(^|\s)(public|open)\s+[A-Za-z@]"#, options: .regularExpression) != nil
    }

    /// The lines of `lines` that are declarations, not statements inside a body (a function's,
    /// an initializer's, a closure's): braces opened on a line declaring a type or an extension
    /// hold declarations, any other braces a body.
    private static func declarations(_ lines: [(file: String, line: String)]) -> [(file: String, line: String)] {
        var scopes: [Bool] = []
        var file = ""
        return lines.filter { entry in
            if entry.file != file { (file, scopes) = (entry.file, []) }
            let inBody = scopes.contains(false)
            let code = entry.line.trimmingCharacters(in: .whitespaces)
            guard !code.hasPrefix("//") else { return false }
            let declaresType = code.range(of: #"\b(struct|class|enum|protocol|actor|extension)\s"#, options: .regularExpression) != nil
            for character in code {
                if character == "{" { scopes.append(declaresType && scopes.allSatisfy { $0 }) }
                if character == "}", !scopes.isEmpty { scopes.removeLast() }
            }
            return !inBody
        }
    }

    @Test func nothingBehindTheWallIsPublic() throws {
        let fastPaths = try Self.lines(of: "FastPaths")
        #expect(!fastPaths.isEmpty)
        let exposed = fastPaths.filter { Self.isPublic($0.line) }.map { "\($0.file): \($0.line)" }
        #expect(exposed.isEmpty, "public declarations behind the wall: \(exposed)")
    }

    @Test func noPortNamesAFastPathType() throws {
        // Top-level types only: a nested `Reader` is named through its outer type.
        let declared = try Self.lines(of: "FastPaths").compactMap { entry -> String? in
            guard entry.line.first?.isWhitespace == false else { return nil }
            let words = entry.line.split(separator: " ")
            guard let kind = words.firstIndex(where: { ["struct", "class", "enum", "protocol", "actor"].contains($0) }),
                kind + 1 < words.count, !words[..<kind].contains(where: { $0.hasPrefix("//") || $0 == "///" })
            else { return nil }
            return String(words[kind + 1].prefix { $0.isLetter || $0.isNumber })
        }
        #expect(declared.contains("ScratchFile") && declared.contains("SpilledRun"))
        let names = Set(declared.filter { $0.first?.isUppercase == true })
        let hidden = ["package ", "private ", "fileprivate "]
        let leaks = try Self.declarations(Self.lines(of: "Ports")).filter { entry in
            let code = entry.line.trimmingCharacters(in: .whitespaces)
            return !code.hasPrefix("//") && !hidden.contains { code.contains($0) } && names.contains { name in entry.line.range(of: "\\b\(name)\\b", options: .regularExpression) != nil }
        }.map { "\($0.file): \($0.line)" }
        #expect(leaks.isEmpty, "port declarations naming a fast path's type: \(leaks)")
    }
}

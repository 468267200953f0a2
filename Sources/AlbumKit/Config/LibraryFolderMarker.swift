import Foundation
import Yams

/// The small file a library folder keeps to say which backend holds its library
/// (`albumkit-library.yaml`: `backend: sqlite` and the backend's settings), written by `init`
/// and `migrate`, so `albumkit --library DIR` opens what is there whatever the global
/// configuration says. Without one, a folder holding exactly one backend's default library
/// file says it by that.
public enum LibraryFolderMarker {
    /// The marker's file name.
    public static let fileName = "albumkit-library.yaml"

    /// Writes the marker for `configuration`'s backend into its library folder (passwords in
    /// URLs left out), atomically: temporary files of it a killed write left go first. Best
    /// effort: a folder that cannot take it keeps working without.
    static func write(for configuration: Configuration) {
        let backend = configuration.storage.backend
        var lines = ["# Written by albumkit: the backend that holds this folder's library.", "backend: \(backend)"]
        let settings = configuration.backendSettings(backend).values
        for key in settings.keys.sorted() {
            guard case .text(let value) = settings[key] else { continue }
            lines.append("\(key): \(YAMLLines.scalar(Self.withoutPassword(value)))")
        }
        try? AtomicFile.makeFolder(configuration.libraryDirectory)
        LeftoverFiles.sweep(configuration.libraryDirectory, only: fileName)
        try? AtomicFile.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: configuration.libraryDirectory.appendingPathComponent(fileName))
    }

    /// The backend and settings the folder says it holds, if it says.
    static func read(in folder: URL) -> (backend: String, settings: [String: String])? {
        guard let text = try? String(contentsOf: folder.appendingPathComponent(fileName), encoding: .utf8),
            let map = (try? Yams.load(yaml: text, .basic)) as? [String: Any], let backend = map["backend"] as? String
        else { return nil }
        var settings: [String: String] = [:]
        for (key, value) in map where key != "backend" { settings[key] = "\(value)" }
        return (backend, settings)
    }

    /// The one registered file backend whose default library file is in `folder`, if exactly one is.
    static func detect(in folder: URL, declarations: [String: [SettingDeclaration]]) -> String? {
        let found = declarations.compactMap { section, keys -> String? in
            guard section.hasPrefix("storage."), case .text(let name)? = keys.first(where: { $0.key == "path" })?.defaultValue,
                FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
            else { return nil }
            return String(section.dropFirst("storage.".count))
        }
        return found.count == 1 ? found[0] : nil
    }

    /// The registered backends whose default library file is in `folder` (for a hint).
    static func backends(in folder: URL, declarations: [String: [SettingDeclaration]]) -> [(backend: String, file: String)] {
        declarations.compactMap { section, keys -> (String, String)? in
            guard section.hasPrefix("storage."), case .text(let name)? = keys.first(where: { $0.key == "path" })?.defaultValue else { return nil }
            let path = folder.appendingPathComponent(name).path
            return FileManager.default.fileExists(atPath: path) ? (String(section.dropFirst("storage.".count)), path) : nil
        }.sorted { $0.0 < $1.0 }
    }

    private static func withoutPassword(_ value: String) -> String {
        guard let url = URLComponents(string: value), url.password != nil else { return value }
        var copy = url
        copy.password = nil
        return copy.string ?? value
    }
}

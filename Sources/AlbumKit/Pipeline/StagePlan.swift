/// The stages `import` runs, in order, as `import.stages` names them (default: the built-in
/// order), each checked against the registry: an unknown or repeated stage, or a list without
/// `validate` or `covers`, is a configuration error naming where the list came from.
public struct StagePlan: Sendable {
    /// The stages in order, with the factories that make them.
    public let factories: [ImportStageFactory]

    /// The stages `configuration` asks for, from `registry`.
    public init(configuration: Configuration, registry: AdapterRegistry) throws(AlbumKitError) {
        let names = configuration.importStages
        let origin = configuration.origin(of: "import.stages")
        func problem(_ message: String) -> AlbumKitError {
            AlbumKitError(.configuration, "import.stages (from \(origin)): \(message)")
        }
        var seen = Set<String>()
        var factories: [ImportStageFactory] = []
        for name in names {
            guard let factory = registry.importStages[name] else {
                let known = registry.importStages.keys.sorted().joined(separator: ", ")
                throw problem("unknown stage '\(name)'\(Spelling.suggestion(for: name, among: Array(registry.importStages.keys))) (registered: \(known))")
            }
            guard seen.insert(name).inserted else { throw problem("stage '\(name)' is listed twice") }
            factories.append(factory)
        }
        for (required, why) in Self.required where !seen.contains(required) {
            throw problem("stage '\(required)' cannot be left out: \(why)")
        }
        self.factories = factories
    }

    /// Stages every import needs, and why.
    static let required = [
        ("validate", "it refuses albums that break the field rules before they reach the library"),
        ("covers", "it links albums to the cover bytes their input carried; without it those covers would be lost"),
    ]

    /// Fresh stages for one import, made in order.
    func makeStages(_ configuration: Configuration) throws -> [any ImportStage] {
        try factories.map { try $0.make(StageContext(configuration: configuration, settings: configuration.settings(for: $0.name))) }
    }
}

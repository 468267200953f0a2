import Foundation

/// Names → adapters: storage backends, album sources, import stages, exporters and cover
/// fetchers.
///
/// Built-ins register through exactly the calls a plugin or an outside package uses
/// (`registry.register(.json)`, `registry.register(.sqlite)`), as fluent's
/// `databases.use(_:as:)` does. A value, passed down; there is no global registry.
public struct AdapterRegistry: Sendable {
    public private(set) var storageBackends: [String: StorageBackendFactory] = [:]
    public private(set) var albumSources: [any AlbumSource] = []
    public private(set) var coverFetchers: [String: CoverFetcherFactory] = [:]
    public private(set) var importStages: [String: ImportStageFactory] = [:]
    public private(set) var exporters: [any Exporter] = []
    /// The default fetcher chain: the names of the fetchers registered into it, in order.
    public private(set) var coverFetcherOrder: [String] = []
    /// The enrichers `enrich` asks (``AlbumEnricher``), by name.
    public private(set) var enrichers: [String: AlbumEnricherFactory] = [:]
    /// The enrichers' names in the order they were registered, which is the order they are asked in.
    public private(set) var enricherOrder: [String] = []
    /// Settings sections declared by modules rather than adapters (`serve`).
    public private(set) var declaredSections: [String: [SettingDeclaration]] = [:]

    /// An empty registry.
    public init() {}

    /// Registers a storage backend under its name, replacing one of the same name.
    public mutating func register(_ factory: StorageBackendFactory) { storageBackends[factory.name] = factory }
    /// Registers an album source, replacing one of the same name. Among sources that
    /// recognise an input equally well, the one registered first reads it.
    public mutating func register(_ source: any AlbumSource) {
        if let index = albumSources.firstIndex(where: { $0.name == source.name }) {
            albumSources[index] = source
        } else {
            albumSources.append(source)
        }
    }
    /// Registers a cover fetcher under its name; `inDefaultChain`: it is part of the chain
    /// used when `covers.fetchers` is unset (a fetcher that asks services on the network about
    /// every album is not: it is named to be used).
    public mutating func register(_ factory: CoverFetcherFactory, inDefaultChain: Bool = true) {
        if coverFetchers[factory.name] == nil, inDefaultChain { coverFetcherOrder.append(factory.name) }
        coverFetchers[factory.name] = factory
    }
    /// Registers an enricher under its name, replacing one of the same name (in its place).
    public mutating func registerEnricher(_ factory: AlbumEnricherFactory) {
        if enrichers[factory.name] == nil { enricherOrder.append(factory.name) }
        enrichers[factory.name] = factory
    }
    /// Declares the settings of a section that belongs to a module, not to an adapter (the
    /// server's `serve.*`): the loader accepts them, `config show` lists them.
    public mutating func declare(section: String, _ settings: [SettingDeclaration]) {
        declaredSections[section, default: []] += settings
    }

    /// Every section of settings the registered adapters and modules declared:
    /// `storage.<backend>` for backends, `plugins.<name>` for the others, and module sections.
    public var settingSections: [String: [SettingDeclaration]] {
        var sections = declaredSections
        for factory in storageBackends.values { sections["storage.\(factory.name)", default: []] += factory.settings }
        var plugins: [(String, [SettingDeclaration])] = coverFetchers.values.map { ($0.name, $0.settings) }
        plugins += importStages.values.map { ($0.name, $0.settings) }
        plugins += albumSources.map { ($0.name, $0.settings) } + exporters.map { ($0.name, $0.settings) }
        for (name, settings) in plugins where !settings.isEmpty {
            let section = "plugins.\(name)"
            sections[section, default: []] += settings.filter { new in !(sections[section] ?? []).contains { $0.key == new.key } }
        }
        return sections
    }
    /// Registers an import stage under its name; `import.stages` names it to run it.
    public mutating func register(_ factory: ImportStageFactory) { importStages[factory.name] = factory }
    /// Registers an exporter, replacing one of the same name; its file endings choose it.
    public mutating func register(_ exporter: any Exporter) {
        exporters.removeAll { $0.name == exporter.name }
        exporters.append(exporter)
    }

    /// The storage backend `configuration` selects.
    public func makeStorage(for configuration: Configuration) throws -> any StorageBackend {
        let name = configuration.storage.backend
        guard let factory = storageBackends[name] else {
            throw AlbumKitError(.configuration, "unknown storage backend '\(name)' (from \(configuration.origin(of: "storage.backend"))); registered: \(storageBackends.keys.sorted().joined(separator: ", "))")
        }
        return try factory.make(configuration)
    }

    /// The source that recognises `input` best (see ``SourceMatch``); among equals, the one
    /// registered first.
    public func source(for input: SourceInput) -> (any AlbumSource)? {
        var best: (source: any AlbumSource, match: SourceMatch)?
        for source in albumSources {
            let match = source.match(input)
            if match > (best?.match ?? .none) { best = (source, match) }
        }
        return best?.source
    }

    /// The source registered as `name` (`import --format NAME`).
    public func source(named name: String) -> (any AlbumSource)? {
        albumSources.first { $0.name == name }
    }

    /// The exporter whose file ending `path` has (the longest that fits); an error listing the
    /// registered endings when none does.
    public func exporter(for path: String) throws(AlbumKitError) -> any Exporter {
        let name = path.lowercased()
        var best: (exporter: any Exporter, length: Int)?
        for exporter in exporters {
            for ending in exporter.fileEndings where name.hasSuffix(ending.lowercased()) && ending.count > (best?.length ?? 0) {
                best = (exporter, ending.count)
            }
        }
        guard let best else {
            throw AlbumKitError(.unsupported, "\(path): cannot tell what to write from the name; use one of \(exportEndings.joined(separator: ", "))")
        }
        return best.exporter
    }

    /// The exporter registered as `name` (`export --format NAME`); an error listing the
    /// registered ones when there is none.
    public func exporter(named name: String) throws(AlbumKitError) -> any Exporter {
        guard let exporter = exporters.first(where: { $0.name == name }) else {
            throw AlbumKitError(.unsupported, "--format \(name): no such exporter (registered: \(exporters.map(\.name).joined(separator: ", ")))")
        }
        return exporter
    }

    /// Every file ending an exporter writes, in registration order.
    public var exportEndings: [String] { exporters.flatMap(\.fileEndings) }
}

/// Makes an adapter from a context; registered under ``name``. One type for every kind of
/// adapter made per use — ``StorageBackendFactory``, ``CoverFetcherFactory`` and
/// ``ImportStageFactory`` are its uses.
public struct AdapterFactory<Context, Adapter>: Sendable {
    /// The name configuration selects it by (`storage.backend`, `covers.fetchers`, `import.stages`).
    public let name: String
    /// One line for `albumkit plugins`.
    public let summary: String
    /// The plugin's version, when it has its own.
    public let version: String?
    /// Where it comes from: the module that declared it, or the program behind it.
    public let origin: AdapterOrigin
    /// The settings it reads (`plugins.<name>.*`, or `storage.<name>.*` for a backend).
    public let settings: [SettingDeclaration]
    /// Builds the adapter.
    public let make: @Sendable (Context) throws -> Adapter

    /// A factory; its origin is the module of the file that declares it unless given.
    public init(
        name: String, summary: String, version: String? = nil, origin: AdapterOrigin? = nil,
        settings: [SettingDeclaration] = [], declaredIn fileID: String = #fileID,
        make: @escaping @Sendable (Context) throws -> Adapter
    ) {
        self.name = name
        self.summary = summary
        self.version = version
        self.origin = origin ?? AdapterOrigin(module: String(fileID.prefix { $0 != "/" }))
        self.settings = settings
        self.make = make
    }
}

/// Where an adapter comes from, for `albumkit plugins` and `pipeline show`.
public enum AdapterOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The AlbumKit core or its bundle module.
    case builtIn
    /// A Swift module (a plugin product of this repository or of an outside package).
    case package(String)
    /// A program spoken to over standard input and output.
    case process(String)

    /// The origin of an adapter declared in `module`.
    public init(module: String) {
        self = ["AlbumKit", "AlbumKitBundle"].contains(module) ? .builtIn : .package(module)
    }

    /// The origin of `adapter`, from the module its type is declared in.
    public init(of adapter: Any) {
        self.init(module: String(String(reflecting: type(of: adapter)).prefix { $0 != "." }))
    }

    public var description: String {
        switch self {
        case .builtIn: "built-in"
        case .package(let module): "package \(module)"
        case .process(let command): "process \(command)"
        }
    }
}

/// Makes a storage backend from the configuration; registered under its name.
public typealias StorageBackendFactory = AdapterFactory<Configuration, any StorageBackend>

/// Makes a cover fetcher from the configuration and the library's store.
public typealias CoverFetcherFactory = AdapterFactory<CoverFetcherContext, any CoverFetcher>

/// The connections of one ``RowStore``: leased one at a time to a reader, a writer or the
/// cover store, and a few kept for the next lease, so a change costs no new connection (a
/// login for PostgreSQL, an open and a schema read for SQLite). The first connection of a
/// process checks the library's version and upgrades an older one.
actor ConnectionPool<Driver: RowStoreDriver> {
    private let driver: Driver
    private var idle: [Driver.Connection] = []
    private var prepared = false
    /// The driver's ``RowStoreDriver/identity()`` when a connection was last given back.
    private var idleIdentity = ""
    /// Kept connections the store changed beneath, closed once a fresh one opens: closing
    /// SQLite's last connection to a file writes the file, which a damaged one must be spared.
    private var retired: [Driver.Connection] = []
    /// Enough for `serve`: a few page reads, a listing, a writer and the watcher at once.
    private static var keptIdle: Int { 8 }

    init(driver: Driver) {
        self.driver = driver
    }

    /// A connection of the caller's own, made when none is idle.
    func lease() async throws -> Driver.Connection {
        if !idle.isEmpty, driver.identity() != idleIdentity {
            // The store changed beneath the kept connections: start afresh, checking its version.
            retired += idle
            idle = []
            prepared = false
        }
        if let connection = idle.popLast() { return connection }
        let connection = try await driver.connect()
        if !prepared {
            do {
                try await RowStoreSchema.prepare(connection, driver)
            } catch {
                driver.close(connection)
                throw error
            }
            prepared = true
        }
        for old in retired { driver.close(old) }
        retired = []
        return connection
    }

    /// Gives `connection` back; one a failure left in an unknown state is closed.
    func release(_ connection: Driver.Connection, reusable: Bool) {
        if reusable, idle.count < Self.keptIdle {
            idle.append(connection)
            idleIdentity = driver.identity()
        } else {
            driver.close(connection)
        }
    }

    deinit {
        for connection in idle + retired { driver.close(connection) }
    }
}

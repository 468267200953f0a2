import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plugin program running as a child in a process group of its own, so that it and
/// anything it starts can be stopped together; it is always reaped, at the latest when this
/// object goes away.
///
/// Its standard input is one end of a socket pair (written with `MSG_NOSIGNAL`, so a plugin
/// that has exited makes a write fail instead of killing AlbumKit with `SIGPIPE`); its
/// standard output and error are pipes. Every call here blocks: ``PluginSession`` makes them
/// on a queue of its own, never on Swift's cooperative threads.
final class PluginProcess: Sendable {
    /// How a plugin program ended.
    enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "was killed by signal \(signal)\(signal == SIGKILL ? " (SIGKILL)" : signal == SIGSEGV ? " (SIGSEGV)" : "")"
            }
        }
    }

    /// Why reading or writing stopped.
    enum Failure: Error {
        /// The deadline passed first.
        case timedOut
        /// The other end is closed (the plugin exited or closed its input).
        case closed
        /// The system refused, with this `errno`.
        case system(Int32)
    }

    /// The child's process id, which is also its process group's id.
    let pid: pid_t
    /// Writes to the child's standard input.
    private let input: Int32
    /// Reads the child's standard output.
    let output: Int32
    /// Reads the child's standard error.
    let errors: Int32
    private let state = Mutex(State())

    private struct State {
        var inputOpen = true
        var termination: Termination?
    }

    /// Starts `arguments` (the program is looked up on `PATH` when its name has no slash) in
    /// a new process group, with AlbumKit's environment and working directory and no other
    /// open descriptors.
    init(arguments: [String]) throws(Failure) {
        var inputPair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &inputPair) == 0 else { throw .system(errno) }
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard Self.pipeClosedOnExec(&outputPipe) else {
            let code = errno
            Self.closeAll([inputPair[0], inputPair[1]])
            throw .system(code)
        }
        guard Self.pipeClosedOnExec(&errorPipe) else {
            let code = errno
            Self.closeAll(inputPair + outputPipe)
            throw .system(code)
        }
        let childEnds = [inputPair[1], outputPipe[1], errorPipe[1]]
        defer { Self.closeAll(childEnds) }
        let spawned = Self.spawn(arguments, stdin: inputPair[1], stdout: outputPipe[1], stderr: errorPipe[1])
        guard case .success(let pid) = spawned else {
            Self.closeAll([inputPair[0], outputPipe[0], errorPipe[0]])
            if case .failure(let failure) = spawned { throw failure }
            throw .system(EINVAL)
        }
        self.pid = pid
        input = inputPair[0]
        output = outputPipe[0]
        errors = errorPipe[0]
        for descriptor in [input, output, errors] { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        if state.withLock({ $0.termination == nil }) {
            stop()
            _ = reap()
        }
        Self.closeAll([output, errors] + (state.withLock { $0.inputOpen } ? [input] : []))
    }

    /// Writes all of `bytes` to the child's standard input by `deadline`.
    func write(_ bytes: Data, by deadline: ContinuousClock.Instant) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                send(input, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if sent > 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try Self.wait(for: input, events: Int16(POLLOUT), by: deadline)
            } else {
                throw errno == EPIPE || errno == ECONNRESET ? .closed : .system(errno)
            }
        }
    }

    /// Reads what the child's standard output (or, with `fromErrors`, its standard error) has,
    /// at most `capacity` bytes, waiting until `deadline` for something; empty at the end.
    func receive(upTo capacity: Int, fromErrors: Bool = false, by deadline: ContinuousClock.Instant?) throws(Failure) -> Data {
        let descriptor = fromErrors ? errors : output
        var buffer = Data(count: capacity)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, capacity) }
            if count >= 0 { return buffer.prefix(count) }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw .system(errno) }
            try Self.wait(for: descriptor, events: Int16(POLLIN), by: deadline)
        }
    }

    /// Closes the child's standard input: the protocol's "no more requests".
    func closeInput() {
        let wasOpen = state.withLock { state in
            defer { state.inputOpen = false }
            return state.inputOpen
        }
        if wasOpen { Self.closeAll([input]) }
    }

    /// Waits until the child has exited, without reaping it (so its process group id stays
    /// reserved while ``stop()`` clears out what it left running); false at `deadline`.
    func waitForExit(by deadline: ContinuousClock.Instant) -> Bool {
        var delay = 1
        while true {
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid { return true }
            if errno == ECHILD { return true }
            if ContinuousClock.now >= deadline { return false }
            usleep(useconds_t(delay * 1000))
            delay = min(delay * 2, 20)
        }
    }

    /// Kills the child's whole process group (the child and whatever it started that stayed
    /// in its group); harmless once they are gone.
    func stop() {
        if state.withLock({ $0.termination == nil }) { _ = kill(-pid, SIGKILL) }
    }

    /// Reaps the child (waiting for it to end) and says how it ended; the same answer when
    /// asked again.
    func reap() -> Termination {
        // Under the lock, so that two callers never both wait for the same child; the wait is
        // short, as callers reap only a child that has exited or was just killed.
        state.withLock { state in
            if let known = state.termination { return known }
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &status, 0) } while result == -1 && errno == EINTR
            let termination: Termination = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
            state.termination = termination
            return termination
        }
    }

    private static func spawn(_ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32) -> Result<pid_t, Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, target) in [(stdin, Int32(0)), (stdout, 1), (stderr, 2)] {
            posix_spawn_file_actions_adddup2(&actions, descriptor, target)
        }
        closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)

        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        return code == 0 ? .success(pid) : .failure(.system(code))
    }

    /// Makes the child close every descriptor past standard error, so it holds no lock file
    /// or socket of AlbumKit's. glibc has `posix_spawn_file_actions_addclosefrom_np` (2.34+),
    /// but its header hides it from Swift's Glibc module, so it is looked up by name.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }

    private static func wait(for descriptor: Int32, events: Int16, by deadline: ContinuousClock.Instant?) throws(Failure) {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        let timeout: Int32
        if let deadline {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw .timedOut }
            timeout = Int32(min(max(1, (left / .milliseconds(1)).rounded(.up)), 60_000))
        } else {
            timeout = -1
        }
        let ready = poll(&entry, 1, timeout)
        if ready == 0, let deadline, ContinuousClock.now >= deadline { throw .timedOut }
        if ready < 0, errno != EINTR { throw .system(errno) }
    }

    /// A pipe whose ends are closed in programs AlbumKit starts (the child gets its end by
    /// `dup2`). `pipe2(O_CLOEXEC)` would do it at once, but Swift's Glibc module hides it.
    private static func pipeClosedOnExec(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private static func closeAll(_ descriptors: [Int32]) {
        for descriptor in descriptors where descriptor >= 0 { _ = close(descriptor) }
    }
}

import Glibc
import Storage

/// What a finished child process left behind.
public struct ProcessResult: Equatable, Sendable {
    /// The exit status, or nil when a signal ended it.
    public var exitStatus: Int32?
    public var signal: Int32?
    public var stdout: [UInt8]
    public var stderr: [UInt8]
    /// The deadline passed and the process (group) was killed.
    public var timedOut: Bool

    public init(exitStatus: Int32?, signal: Int32? = nil, stdout: [UInt8] = [], stderr: [UInt8] = [], timedOut: Bool = false) {
        self.exitStatus = exitStatus
        self.signal = signal
        self.stdout = stdout
        self.stderr = stderr
        self.timedOut = timedOut
    }

    /// The result of a child `waitpid` reported `status` for: its exit status, or the signal that ended it.
    public init(waitStatus status: Int32, stdout: [UInt8] = [], stderr: [UInt8] = [], timedOut: Bool = false) {
        let signal = status & 0x7f
        self.init(exitStatus: signal == 0 ? (status >> 8) & 0xff : nil, signal: signal == 0 ? nil : signal,
                  stdout: stdout, stderr: stderr, timedOut: timedOut)
    }

    public var succeeded: Bool { exitStatus == 0 && !timedOut }
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// stderr as one trimmed line of text, for messages.
    public var stderrText: String {
        String(decoding: stderr, as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: "; ")
    }
    /// `exit status 1: no crontab for x`, `killed after 10 s`...
    public var failureSummary: String {
        if timedOut { return "did not finish in time and was stopped" }
        var text = signal.map { "ended by signal \($0)" } ?? "exit status \(exitStatus ?? -1)"
        if !stderrText.isEmpty { text += ": " + stderrText }
        return text
    }
}

/// Why a program could not be started at all.
public struct SpawnError: Error, Equatable, Sendable, CustomStringConvertible {
    public let program: String
    public let code: Int32
    public var notFound: Bool { code == ENOENT }
    public var description: String {
        notFound ? "\(program) is not installed (not found in PATH)" : "cannot start \(program): \(Posix.message(for: code))"
    }
}

/// Starts programs. The real one spawns processes; tests may record or redirect calls.
public protocol ProcessRunner: Sendable {
    /// Runs `argv` (looked up in PATH) to completion or `timeout` seconds, with `input` on stdin
    /// (or /dev/null) and `environment` changes (nil removes a variable).
    func run(_ argv: [String], input: [UInt8]?, environment: [String: String?], timeout: Double) throws(SpawnError) -> ProcessResult
    /// Runs `argv` with the file at `path` as its stdin (a requirement, so callers holding any
    /// runner reach the real one's version, which hands the child the file itself).
    func run(_ argv: [String], stdinFile path: String, environment: [String: String?], timeout: Double) throws(SpawnError) -> ProcessResult
}

extension ProcessRunner {
    public func run(_ argv: [String], input: [UInt8]? = nil, timeout: Double = 30) throws(SpawnError) -> ProcessResult {
        try run(argv, input: input, environment: [:], timeout: timeout)
    }

    /// Runs `argv` with the file at `path` as its stdin. The real runner hands the child the
    /// file itself, so the child reads all of it even if this process dies meanwhile; this
    /// default (for runners that only record or redirect) passes the file's bytes. A file it
    /// cannot read fails the run: an empty stdin would be taken for an empty table.
    public func run(_ argv: [String], stdinFile path: String, environment: [String: String?], timeout: Double) throws(SpawnError) -> ProcessResult {
        let read: [UInt8]?
        do {
            read = try FileIO.read(path, limit: 64 << 20)
        } catch {
            throw SpawnError(program: argv[0], code: error.code == ENOENT ? EIO : error.code)
        }
        // (ENOENT would read as "not installed", which is about the program, not this file.)
        guard let bytes = read else { throw SpawnError(program: argv[0], code: EIO) }
        return try run(argv, input: bytes, environment: environment, timeout: timeout)
    }
}

import Foundation
import LinuxGateway

/// What a finished command printed and returned.
struct RunResult: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String
    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Runs a program to completion (killing it after `timeout` seconds) with exactly `environment`.
/// Uses notif's own process runner: unlike Foundation's Process it notices a child that exits
/// while a daemon it started (tmux, dbus) still holds the output pipes.
func run(_ argv: [String], environment: [String: String], input: String? = nil, timeout: TimeInterval = 60) throws -> RunResult {
    let assignments = environment.keys.sorted().map { "\($0)=\(environment[$0]!)" }
    let result = try SpawnProcessRunner().run(["/usr/bin/env", "-i"] + assignments + argv, input: input.map { Array($0.utf8) },
                                              environment: [:], timeout: timeout)
    return RunResult(status: result.exitStatus ?? (128 + (result.signal ?? 0)), stdout: result.stdoutText,
                     stderr: String(decoding: result.stderr, as: UTF8.self))
}

/// Polls `condition` every 100 ms until it holds or `seconds` pass, without holding a thread
/// while it waits: a test that waits a minute for 09:00 leaves the test runner's few threads
/// (one per core) to the other tests.
func poll(for seconds: TimeInterval, until condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
        if try condition() { return true }
        // Cancelled (the test's time limit passed): one last look, not a spin to the deadline.
        do { try await Task.sleep(nanoseconds: 100_000_000) } catch { return try condition() }
    } while Date() < deadline
    return try condition()
}

struct E2EFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let isRoot = getuid() == 0

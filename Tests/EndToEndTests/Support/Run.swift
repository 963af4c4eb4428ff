import Foundation

/// What a finished command printed and returned.
struct RunResult: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String
    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Runs a program to completion (killing it after `timeout` seconds) with an exact environment.
func run(_ argv: [String], environment: [String: String], input: String? = nil, timeout: TimeInterval = 60) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: argv[0].hasPrefix("/") ? argv[0] : "/usr/bin/env")
    process.arguments = argv[0].hasPrefix("/") ? Array(argv.dropFirst()) : argv
    process.environment = environment
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
    try process.run()
    if let input {
        inPipe.fileHandleForWriting.write(Data(input.utf8))
        try inPipe.fileHandleForWriting.close()
    }
    // Read both pipes fully while the process runs (no deadlock on large output).
    let group = DispatchGroup()
    nonisolated(unsafe) var outData = Data(), errData = Data()
    DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(2000) }
    if process.isRunning {
        process.terminate()
        kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
    _ = group.wait(timeout: .now() + 5)
    return RunResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                     stderr: String(decoding: errData, as: UTF8.self))
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass.
func waitUntil(_ seconds: TimeInterval, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
        if try condition() { return true }
        usleep(20_000)
    } while Date() < deadline
    return try condition()
}

struct E2EFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let isRoot = getuid() == 0

import Foundation

/// Where the package's own files are (doc/, Makefile).
let packageRoot: String = {
    let filePath: String = #filePath
    return URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
}()

/// What a program printed and how it ended.
struct Ran: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String
    var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// Runs `argv` (found on PATH) with `input` on stdin, to its end (killed after 5 minutes, a hang guard).
func runProgram(_ argv: [String], input: String = "", environment: [String: String] = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]) throws -> Ran {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = argv
    process.environment = environment
    let out = Pipe(), err = Pipe(), stdin = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = stdin
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let guardTimer = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: guardTimer)
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guardTimer.cancel()
    return Ran(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
}

/// Whether a program is on PATH.
func installed(_ program: String) -> Bool {
    ["/usr/bin/", "/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + program) }
}

/// A temporary file holding `text`, removed by the caller.
func temporaryFile(_ text: String, suffix: String = "") throws -> String {
    let path = NSTemporaryDirectory() + "notif-cli-\(UUID().uuidString)\(suffix)"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The directory of the `notif` built next to this test bundle: the completion scripts ask it
/// what to offer, so the shells find it first on PATH.
let builtProgramDirectory: String = {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = bundle.deletingLastPathComponent()
    if directory.lastPathComponent.hasSuffix(".xctest") { directory = directory.deletingLastPathComponent() }
    for candidate in [directory, bundle.deletingLastPathComponent()] where FileManager.default.isExecutableFile(atPath: candidate.path + "/notif") {
        return candidate.path
    }
    fatalError("notif not found near \(bundle.path); run `swift build` first")
}()

/// PATH for a shell whose completion runs the built `notif`.
let shellPath = builtProgramDirectory + ":/usr/bin:/bin"

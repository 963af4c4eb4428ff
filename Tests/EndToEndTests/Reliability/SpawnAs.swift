import Foundation

/// Starts a program directly as another user (`setpriv` execs it in place: the pid is the
/// program's own, so a signal hits it and not a wrapper).
func spawnAs(_ user: TestUser, _ argv: [String], _ extra: [String: String] = [:]) throws -> Process {
    let env = user.environment(extra)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments = ["--reuid=" + user.uid, "--regid=" + user.uid, "--init-groups", "/usr/bin/env", "-i"]
        + env.keys.sorted().map { "\($0)=\(env[$0]!)" } + argv
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}

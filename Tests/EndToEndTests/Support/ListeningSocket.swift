import Foundation
import TestSupport

/// A UNIX socket a process of `user` listens on, in a runtime directory of theirs: what notif
/// sees of a running systemd user manager (`XDG_RUNTIME_DIR/systemd/private`).
final class ListeningSocket {
    let runtimeDirectory: String
    private let process: Process

    init(as user: TestUser, in sandbox: Sandbox, at relative: String) throws {
        runtimeDirectory = sandbox.path + "/runtime-" + user.name
        let path = runtimeDirectory + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let owned = try run(["chown", "-R", user.name, runtimeDirectory], environment: ["PATH": "/usr/bin:/bin"])
        guard owned.status == 0 else { throw E2EFailure("chown: \(owned)") }
        chmod(runtimeDirectory, 0o700)
        process = try spawnAs(user, ["/usr/bin/python3", "-c",
                                     "import socket, sys, time\ns = socket.socket(socket.AF_UNIX)\ns.bind(sys.argv[1])\ns.listen(8)\ntime.sleep(600)",
                                     path])
        guard waitUntil(10, { FileManager.default.fileExists(atPath: path) }) else {
            stop()
            throw E2EFailure("nothing listened on \(path)")
        }
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

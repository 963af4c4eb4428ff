import Foundation
import TestSupport

/// A D-Bus daemon run by `user` at `path` whose policy lets every user connect
/// (`<allow user="*"/>`): a bus another user offers, as an attacker would.
final class OpenBus {
    let address: String
    private let group: ProcessGroup
    private let config: String

    init(_ user: TestUser, path: String) throws {
        config = "/tmp/notif-openbus-" + UUID().uuidString.prefix(8).lowercased() + ".conf"
        let text = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig><type>session</type><listen>unix:path=\(path)</listen><auth>EXTERNAL</auth>
        <policy context="default"><allow user="*"/><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
        </busconfig>
        """
        try Data(text.utf8).write(to: URL(fileURLWithPath: config))
        chmod(config, 0o644)
        group = try ProcessGroup(["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/dbus-daemon", "--nofork", "--config-file=" + config])
        guard waitUntil(10, { (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeSocket }) else {
            throw E2EFailure("dbus-daemon as \(user.name) did not listen on \(path)")
        }
        address = "unix:path=" + path
    }

    deinit {
        group.stop()
        unlink(config)
    }
}

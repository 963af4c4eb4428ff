import Foundation
import Testing

/// A user only NSS knows (libnss-extrausers, as a user of LDAP, SSSD or systemd-homed would be:
/// not in /etc/passwd): the release binary finds their name and home through the account
/// database, so messages name them and a run without HOME uses their home.
@Suite(.enabled(if: isRoot, "needs root to add a user to the account database"))
struct AccountDatabaseTests {
    static let path = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]

    @Test(.hangGuard)
    func aUserOnlyNSSKnowsIsNamedAndHasTheirHome() throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let name = "notif-tnss", uid: uid_t = 47_110
        let home = sandbox.path + "/nss home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        chown(home, uid, uid)
        chmod(home, 0o700)
        let script = packageRoot + "/scripts/nss-only-user"
        let added = try run([script, "add", name, String(uid), home], environment: Self.path)
        // Whatever happens below: nsswitch.conf and the extrausers files as they were.
        defer { _ = try? run([script, "remove"], environment: Self.path) }
        try #require(added.status == 0, "\(added)")
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        try #require(!passwd.contains(name + ":"), "the test user must not be in /etc/passwd")
        let asUser = { (argv: [String], env: [String: String]) in
            try run(["runuser", "-u", name, "--", "env", "-i"] + env.keys.sorted().map { "\($0)=\(env[$0]!)" } + argv,
                    environment: Self.path)
        }
        let plain = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "NOTIF_SCHEDULER": "embedded"]

        // No HOME: the account database's home.
        let allowed = try asUser([binary, "permission", "allow"], plain)
        #expect(allowed.status == 0, "\(allowed)")
        #expect(FileManager.default.fileExists(atPath: home + "/.config/notif/settings.json"), "\(allowed)")

        // Root with the user's HOME: told whose it is, by name.
        let asRoot = try run([binary, "status"], environment: plain.merging(["HOME": home]) { a, _ in a })
        #expect(asRoot.status == 1 && asRoot.stderr.contains("belongs to \(name) (uid \(uid))")
                && asRoot.stderr.contains("sudo -u \(name) notif"), "\(asRoot)")

        // The user meeting root's directory in their home: named by their own name.
        let state = home + "/.local/state/notif"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        chown(home + "/.local", uid, uid)
        chown(home + "/.local/state", uid, uid)
        chown(state, 0, 0)
        let foreign = try asUser([binary, "status"], plain.merging(["HOME": home]) { a, _ in a })
        #expect(foreign.status == 1 && foreign.stderr.contains("belongs to root (uid 0), not to \(name)")
                && foreign.stderr.contains("sudo chown -R \(name): \(state)"), "\(foreign)")

        // A HOME that cannot be made under root's own directory: never "give / to the user".
        let nowhere = try asUser([binary, "permission", "allow"], plain.merging(["HOME": "/nonexistent"]) { a, _ in a })
        #expect(nowhere.status == 1 && nowhere.stderr.contains("/ belongs to root, not to \(name), and is not a place for your files")
                && !nowhere.stderr.contains("chown"), "\(nowhere)")
    }
}

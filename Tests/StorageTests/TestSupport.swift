import Foundation
import SharedLogic
@testable import Storage

/// A fresh private directory for one test, removed when the value is released.
final class TempDir {
    let path: String
    init() {
        let base = FileManager.default.temporaryDirectory.path + "/notif-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        path = base
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    var paths: NotifPaths { NotifPaths(home: path, configHome: path + "/config", stateHome: path + "/state") }

    func write(_ text: String, to relative: String) {
        let full = path + "/" + relative
        try! FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: full, contents: Data(text.utf8))
    }

    func read(_ relative: String) -> String? {
        (try? Data(contentsOf: URL(fileURLWithPath: path + "/" + relative))).map { String(decoding: $0, as: UTF8.self) }
    }

    func list(_ relative: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path + "/" + relative)) ?? []).sorted()
    }

    func mode(_ relative: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "/" + relative))?[.posixPermissions] as? Int) ?? -1
    }
}

/// A clock that says what the test tells it.
struct FixedClock: WallClock {
    var instant: Instant
    func now() -> Instant { instant }
}

/// A fresh directory where the trust rule can pass (not under /tmp): under root's /srv/notif-e2e,
/// else ~/.cache/notif-e2e (as the end-to-end sandboxes); mode 0755, removed when released.
final class TrustedDir {
    let path: String
    init() {
        let base = getuid() == 0 ? "/srv/notif-e2e" : NSHomeDirectory() + "/.cache/notif-e2e"
        path = base + "/storage-" + UUID().uuidString.prefix(8).lowercased()
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(base, 0o755)
        chmod(path, 0o755)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

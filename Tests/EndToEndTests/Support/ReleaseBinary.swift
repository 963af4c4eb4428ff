import Foundation

/// The static release binary (`make release`: `.build/release/notif`), the one `make run` and
/// `make install` ship. libfaketime cannot move its clock (a static executable ignores
/// LD_PRELOAD), so tests that run it reach 09:00 by shifting the zone (`ShiftedZone`).
/// `make test` builds it before running the tests.
enum ReleaseBinary {
    /// `release/notif` next to the debug build folder this test bundle sits in.
    static let path: String = {
        let debug = URL(fileURLWithPath: NotifBinary.path).deletingLastPathComponent()
        return debug.deletingLastPathComponent().appendingPathComponent("release/notif").path
    }()

    /// The release binary, checked: it exists and is not older than the debug build (which
    /// `swift build` relinks on every change), so a test never runs yesterday's code.
    static func checked() throws -> String {
        let files = FileManager.default
        guard files.isExecutableFile(atPath: path) else {
            throw E2EFailure("no release binary at \(path): run `make release` (or `make test`, which builds it) first")
        }
        let built = { (file: String) in (try? files.attributesOfItem(atPath: file)[.modificationDate] as? Date) ?? .distantPast }
        guard built(path) >= built(NotifBinary.path) else {
            throw E2EFailure("the release binary \(path) is older than the debug build: run `make release` again")
        }
        return path
    }

    /// A copy throwaway users can run, in a directory whose path holds a space.
    static func publicCopy(in sandbox: Sandbox) throws -> String {
        try NotifBinary.publicCopy(in: sandbox, directory: "release bin", of: checked())
    }
}

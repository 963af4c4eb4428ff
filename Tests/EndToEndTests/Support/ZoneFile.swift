import Foundation

/// A TZif file made with `zic` for a fixed offset (seconds east of UTC), so a test can put
/// local time anywhere it likes with real clocks: the way to reach 09:00 for the release
/// binary without libfaketime.
enum ZoneFile {
    /// Writes the zone to `path` through a temporary file renamed over it, as tzdata is updated.
    static func write(offset: Int, to path: String) throws {
        let work = path + ".zic"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let sign = offset < 0 ? "-" : ""
        let a = abs(offset)
        let text = "Zone NotifTest/Shift \(sign)\(a / 3600):\(String(format: "%02d", a / 60 % 60)):\(String(format: "%02d", a % 60)) - NTF\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: work + "/zone.txt"))
        let made = try run(["zic", "-d", work + "/out", work + "/zone.txt"], environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        guard made.status == 0 else { throw E2EFailure("zic: \(made)") }
        guard rename(work + "/out/NotifTest/Shift", path) == 0 else { throw E2EFailure("cannot rename the zone into \(path)") }
    }

    /// Compiles zic `rules` that define zone `name` and installs the result at `file` (the
    /// named zones tests put under /usr/share/zoneinfo).
    static func install(rules: String, name: String, at file: String) throws {
        let work = "/tmp/notif-zone-" + UUID().uuidString.prefix(8).lowercased()
        defer { try? FileManager.default.removeItem(atPath: work) }
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try rules.write(toFile: work + "/zone", atomically: true, encoding: .utf8)
        let env = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        let compiled = try run(["zic", "-d", work + "/out", work + "/zone"], environment: env)
        guard compiled.status == 0 else { throw E2EFailure("zic: \(compiled)") }
        let installed = try run(["install", "-D", "-m", "644", work + "/out/" + name, file], environment: env)
        guard installed.status == 0 else { throw E2EFailure("install zone: \(installed)") }
    }

    /// The offset that makes local time `hour:minute:second` now, at most +14:00 less `later`:
    /// a zone swapped later to an offset up to `later` seconds east stays on the same local day
    /// (+14:00 then -09:30 would put the clock back a day).
    static func offset(makingLocalTime hour: Int, _ minute: Int, _ second: Int, leavingRoomFor later: Int = 0) -> Int {
        let now = Int(Date().timeIntervalSince1970) % 86_400
        var offset = ((hour * 3600 + minute * 60 + second) - now) % 86_400
        if offset < 0 { offset += 86_400 }
        if offset > 14 * 3600 - later { offset -= 86_400 }
        return offset
    }
}

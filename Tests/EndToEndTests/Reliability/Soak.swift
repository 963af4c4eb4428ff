import Foundation

/// Iteration counts: the short versions run in `make test`; `make soak` sets NOTIF_SOAK=1 for
/// the long ones.
enum Soak {
    static let enabled = ProcessInfo.processInfo.environment["NOTIF_SOAK"] == "1"
    static func count(short: Int, soak: Int) -> Int { enabled ? soak : short }
    static func seconds(short: Double, soak: Double) -> Double { enabled ? soak : short }
}

/// A deterministic random source, seeded so a failure can be replayed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    let seed: UInt64
    init(seed: UInt64 = UInt64(Date().timeIntervalSince1970 * 1000)) {
        self.seed = seed
        state = seed
    }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

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

import Glibc

/// The seed of a random test run: `NOTIF_SEED=<the seed a run printed>` replays that run (with
/// `--filter` naming the test), otherwise a fresh seed each time.
public enum RunSeed {
    public static func fromEnvironment() -> UInt64 {
        if let text = getenv("NOTIF_SEED").map({ String(cString: $0) }), let seed = UInt64(text) { return seed }
        return UInt64.random(in: .min ... .max)
    }
}

@testable import NotifApp
import SharedLogic

/// What an `Output` was given, stdout and stderr apart.
final class CapturedOutput {
    var out = ""
    var err = ""

    var output: Output {
        Output(out: { self.out += $0 }, err: { self.err += $0 }, outJSON: { self.out += $0 })
    }
}

struct FixedClock: WallClock {
    var instant: Instant
    func now() -> Instant { instant }
}

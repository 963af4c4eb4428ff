import Glibc
import SharedLogic

/// The fallback sleeper, for kernels without timerfd or inotify: waits with `sigtimedwait` on
/// SIGTERM, SIGINT and SIGHUP (blocked for the whole process from the moment this is made) at
/// most `longestNap` seconds at a time, so clock jumps, zone changes and edits are noticed
/// within a minute by looking. SIGHUP only wakes the daemon. Children get an empty mask from
/// `SpawnProcessRunner`.
public final class SignalSleeper: DaemonSleeper {
    public static let longestNap: Int64 = 60
    private var signals = sigset_t()
    private let clock: any WallClock

    public init(clock: any WallClock) {
        self.clock = clock
        sigemptyset(&signals)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    public func nap(until wake: Instant?) -> NapEnd {
        var seconds = Self.longestNap
        if let wake { seconds = min(seconds, max(1, wake.seconds - clock.now().seconds)) }
        var timeout = timespec(tv_sec: Int(seconds), tv_nsec: 0)
        let signal = sigtimedwait(&signals, nil, &timeout)
        switch signal {
        case SIGTERM, SIGINT: return .stop
        case SIGHUP: return .changed
        default: return .elapsed
        }
    }
}

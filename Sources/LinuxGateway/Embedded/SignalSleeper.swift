import Glibc

/// Sleeps with `sigtimedwait` on SIGTERM, SIGINT and SIGHUP, which are blocked for the whole
/// process from the moment this is made (for the rest of its life): no signal handler, no shared
/// flag, and a signal that arrives while a delivery runs is not lost (it ends the next nap at
/// once). SIGHUP only wakes the daemon. Children get an empty mask from `SpawnProcessRunner`.
public final class SignalSleeper: DaemonSleeper {
    private var signals = sigset_t()

    public init() {
        sigemptyset(&signals)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    public func nap(seconds: Int64) -> NapEnd {
        var timeout = timespec(tv_sec: Int(seconds), tv_nsec: 0)
        let signal = sigtimedwait(&signals, nil, &timeout)
        return signal == SIGTERM || signal == SIGINT ? .stop : .elapsed
    }
}

import CNcursesw
import Glibc

/// One worker thread running jobs in the order they came: the page's effects of one kind (saves,
/// scheduler work, tests, history) run here, off the key loop, so a program that hangs never
/// holds up a key. Signals are blocked in the thread: they go to the key loop, which answers them.
final class Lane: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var jobs: [@Sendable () -> Void] = []
    private var busy = false

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        var thread = pthread_t()
        let box = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { argument in
            let lane = Unmanaged<Lane>.fromOpaque(argument!).takeRetainedValue()
            notif_block_signals_in_this_thread()
            lane.work()
            return nil
        }, box)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Lane>.fromOpaque(box).release()
        }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        jobs.append(job)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// A moment `seconds` from now, for `waitUntilIdle`.
    static func deadline(in seconds: Double) -> timespec {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let nanos = Int(deadline.tv_nsec) + Int(seconds * 1e9)
        deadline.tv_sec += nanos / 1_000_000_000
        deadline.tv_nsec = nanos % 1_000_000_000
        return deadline
    }

    /// Waits until every job given so far has run, or `deadline` passes. Returns whether it is idle.
    func waitUntilIdle(deadline: timespec) -> Bool {
        var deadline = deadline
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while busy || !jobs.isEmpty {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return !busy && jobs.isEmpty }
        }
        return true
    }

    private func work() {
        while true {
            pthread_mutex_lock(mutex)
            while jobs.isEmpty { pthread_cond_wait(condition, mutex) }
            let job = jobs.removeFirst()
            busy = true
            pthread_mutex_unlock(mutex)
            job()
            pthread_mutex_lock(mutex)
            busy = false
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
    }
}

import Glibc

/// A value behind a pthread mutex, with a condition variable so a thread can wait until another
/// changes it: `Synchronization.Mutex` plus waiting. The value is reached only under the lock,
/// never across a wait, and every change wakes every waiting thread.
final class Monitor<Value: Sendable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Changes the value, then wakes the threads waiting for a change.
    func change<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return body(&value)
    }

    /// Waits (without a limit) until `ready` holds, then changes the value as `change` does.
    func change<Result>(whenReady ready: (Value) -> Bool, _ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        while !ready(value) { pthread_cond_wait(condition, mutex) }
        return body(&value)
    }

    /// Waits until `ready` holds or `deadline` (CLOCK_MONOTONIC) passes. Returns whether it holds.
    func wait(until ready: (Value) -> Bool, deadline: timespec) -> Bool {
        var deadline = deadline
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(value) {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return ready(value) }
        }
        return true
    }
}

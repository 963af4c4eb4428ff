import CNcursesw
import Glibc

/// One worker thread running jobs in the order they came: the page's effects of one kind (saves,
/// scheduler work, tests, history) run here, off the key loop, so a program that hangs never
/// holds up a key. Signals are blocked in the thread: they go to the key loop, which answers them.
final class Lane: Sendable {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var busy = false
        var idle: Bool { !busy && jobs.isEmpty }
    }

    private let queue = Monitor(Queue())

    init() {
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
        queue.change { $0.jobs.append(job) }
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
        queue.wait(until: \.idle, deadline: deadline)
    }

    private func work() {
        while true {
            let job = queue.change(whenReady: { !$0.jobs.isEmpty }) { queue in
                queue.busy = true
                return queue.jobs.removeFirst()
            }
            job()
            queue.change { $0.busy = false }
        }
    }
}

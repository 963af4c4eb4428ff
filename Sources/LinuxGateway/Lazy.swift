import Synchronization

/// A value known now, or looked up on first use and then kept. Safe to read from several
/// threads at once (the page's workers share one context): the lookup runs once.
final class Lazy<Value>: @unchecked Sendable {
    private var known: Value?
    private var load: (() -> Value)?
    private let lock = Mutex(())

    init(_ value: Value) { known = value }
    init(_ load: @escaping () -> Value) { self.load = load }

    var value: Value {
        lock.withLock { _ in
            if let known { return known }
            let value = load!()
            known = value
            load = nil
            return value
        }
    }
}

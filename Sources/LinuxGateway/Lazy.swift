import Synchronization

/// A value known now, or looked up on first use and then kept. Safe to read from several
/// threads at once (the page's workers share one context): the lookup runs once, under the lock.
final class Lazy<Value: Sendable>: Sendable {
    private enum State {
        case known(Value)
        case pending(@Sendable () -> Value)
    }

    private let state: Mutex<State>

    init(_ value: Value) { state = Mutex(.known(value)) }
    init(_ load: @escaping @Sendable () -> Value) { state = Mutex(.pending(load)) }

    var value: Value {
        state.withLock { state in
            switch state {
            case .known(let value):
                return value
            case .pending(let load):
                let value = load()
                state = .known(value)
                return value
            }
        }
    }
}

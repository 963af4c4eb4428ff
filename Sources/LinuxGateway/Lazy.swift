/// A value known now, or looked up on first use and then kept.
final class Lazy<Value>: @unchecked Sendable {
    private var known: Value?
    private var load: (() -> Value)?

    init(_ value: Value) { known = value }
    init(_ load: @escaping () -> Value) { self.load = load }

    var value: Value {
        if let known { return known }
        let value = load!()
        known = value
        load = nil
        return value
    }
}


import Testing

/// How long an end-to-end test may run before it counts as hung: a guard against a hang, never
/// a timing. Under `make test` on 2 cores hundreds of tests share the test runner's two threads,
/// and one that takes a minute alone has taken seven (a 5-minute limit failed CI that way).
extension Trait where Self == TimeLimitTrait {
    static var hangGuard: Self { .timeLimit(.minutes(Soak.isOn ? 120 : 30)) }
}

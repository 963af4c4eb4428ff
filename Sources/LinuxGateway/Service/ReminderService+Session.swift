import SharedLogic
import Storage

/// The desktop session's bus address, kept for scheduled jobs that start without one.
extension ReminderService {
    /// Remembers this desktop session's bus address for jobs that start without one: only what
    /// passes the rule for session variables (another user's bus or display is not recorded).
    func recordSession() {
        let lookup = context.lookup
        guard let session = SessionEnvironment.capture(lookup, problem: { SessionEnvironment.problem($0, $1, lookup: lookup) }) else { return }
        _ = try? context.state.write(StateFiles.sessionFile, session.text)
    }
}

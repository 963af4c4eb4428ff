import SharedLogic
import Storage

/// The desktop session's bus address, kept for scheduled jobs that start without one.
extension ReminderService {
    /// Remembers this desktop session's bus address for jobs that start without one.
    func recordSession() {
        guard let session = SessionEnvironment.capture(context.lookup) else { return }
        _ = try? context.state.write(StateFiles.sessionFile, session.text)
    }
}

import LinuxGateway
import SharedLogic
import SettingsUI
import Storage

/// Which changed files mean what for the page. Only finished writes count (a close after
/// writing, a rename into place), and only of files no read of the page's own writes to, so the
/// page never wakes itself in a loop.
enum OutsideChanges {
    /// - Parameter settingsFiles: settings.json and the file it leads to when it is a link.
    static func classify(_ changes: [FileChange], paths: NotifPaths, settingsFiles: [String]) -> [OutsideChange] {
        var result: [OutsideChange] = []
        for change in changes {
            let meaning: OutsideChange?
            if change.directory == paths.stateDirectory {
                switch change.name {
                // Every apply holds this lock; its release (even a read-only one) means one finished.
                case "apply.lock": meaning = .schedule
                case "deliveries.jsonl", "delivered.json": meaning = change.written ? .deliveries : nil
                // `notif daemon` started (it records its zone) or ended (its lock's release).
                case StateFiles.daemonZoneFile, EmbeddedScheduler.daemonLockName: meaning = change.written ? .schedule : nil
                // A waiter holds its lock open for writing: its end (a kill too) is a finished
                // write there, and today's reminder may be owed now. Lock probes only read.
                case let name where LocalReminders.all.contains { StateFiles.waitLock($0.id) == name }:
                    meaning = change.written ? .deliveries : nil
                default: meaning = nil
                }
            } else {
                let file = Posix.join(change.directory, change.name)
                if change.written && settingsFiles.contains(file) {
                    meaning = .settings
                } else if change.directory == paths.configDirectory && change.name.hasPrefix("settings.edit-") && change.name.hasSuffix(".json") {
                    // A copy `notif edit` kept, or its removal: the status's notice of it changes.
                    meaning = change.written ? .schedule : nil
                } else {
                    meaning = nil
                }
            }
            if let meaning, !result.contains(meaning) { result.append(meaning) }
        }
        return result
    }
}

import CursesTerminal
import SettingsUI
import Storage

/// Which changed files mean what for the page. Only finished writes count (a close after
/// writing, a rename into place), and only of files no read of the page's own writes to, so the
/// page never wakes itself in a loop.
enum OutsideChanges {
    static func classify(_ changes: [FileChange], paths: NotifPaths, settingsPath: String) -> [OutsideChange] {
        var result: [OutsideChange] = []
        let settingsName = String(settingsPath.split(separator: "/").last ?? "")
        for change in changes {
            let meaning: OutsideChange?
            if change.directory == paths.stateDirectory {
                switch change.name {
                // Every apply holds this lock; its release (even a read-only one) means one finished.
                case "apply.lock": meaning = .schedule
                case "deliveries.jsonl", "delivered.json": meaning = change.written ? .deliveries : nil
                default: meaning = nil
                }
            } else {
                meaning = change.written && change.name == settingsName ? .settings : nil
            }
            if let meaning, !result.contains(meaning) { result.append(meaning) }
        }
        return result
    }
}

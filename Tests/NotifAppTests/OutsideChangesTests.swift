@testable import NotifApp
import SettingsUI
import Storage
import Testing

/// Which changed files the page reacts to: settings written elsewhere, an apply finished, a
/// delivery; never the page's own reads.
@Suite struct OutsideChangesTests {
    let paths = NotifPaths(home: "/h", configHome: "/h/.config", stateHome: "/h/.local/state")
    var settings: String { paths.configDirectory + "/settings.json" }

    func classify(_ changes: [(String, String, Bool)], linkedTo target: String? = nil) -> [OutsideChange] {
        OutsideChanges.classify(changes.map { FileChange(directory: $0.0, name: $0.1, written: $0.2) }, paths: paths,
                                settingsFiles: [settings] + [target].compactMap { $0 })
    }

    @Test func eachFileMeansItsChange() {
        #expect(classify([(paths.configDirectory, "settings.json", true)]) == [.settings])
        #expect(classify([(paths.stateDirectory, "deliveries.jsonl", true)]) == [.deliveries])
        #expect(classify([(paths.stateDirectory, "delivered.json", true)]) == [.deliveries])
        // A waiter ended (killed, say): today's reminder may be owed now. A lock probe only reads.
        #expect(classify([(paths.stateDirectory, "wait-tips-and-updates.lock", true)]) == [.deliveries])
        #expect(classify([(paths.stateDirectory, "wait-tips-and-updates.lock", false)]).isEmpty)
        // `notif daemon` started (its zone recorded) or ended (its lock released): the status is looked at again.
        #expect(classify([(paths.stateDirectory, "daemon-zone", true)]) == [.schedule])
        #expect(classify([(paths.stateDirectory, "daemon.lock", true)]) == [.schedule])
        #expect(classify([(paths.stateDirectory, "daemon.lock", false)]).isEmpty)
        // Every apply holds the lock; its release, even after only reading, means one finished.
        #expect(classify([(paths.stateDirectory, "apply.lock", false)]) == [.schedule])
        // A copy `notif edit` kept, made or removed: the status's notice of it is looked at again.
        #expect(classify([(paths.configDirectory, "settings.edit-0a1b2c3d.json", true)]) == [.schedule])
        #expect(classify([(paths.configDirectory, "settings.edit-0a1b2c3d.json", false)]).isEmpty)
    }

    @Test func readsAndOtherFilesMeanNothing() {
        #expect(classify([(paths.configDirectory, "settings.json", false)]).isEmpty)
        #expect(classify([(paths.stateDirectory, "deliveries.jsonl", false)]).isEmpty)
        #expect(classify([(paths.configDirectory, "settings.json.tmp", true), (paths.stateDirectory, "session.env", true)]).isEmpty)
        // A settings.json in the state directory is not the settings.
        #expect(classify([(paths.stateDirectory, "settings.json", true)]).isEmpty)
    }

    /// settings.json as a link (dotfiles kept in a repository): a finished write of the file it
    /// leads to is a change of the settings; other files in that directory are not.
    @Test func theFileALinkedSettingsFileLeadsToIsTheSettings() {
        let target = "/h/dotfiles/notif/settings.json"
        #expect(classify([("/h/dotfiles/notif", "settings.json", true)], linkedTo: target) == [.settings])
        #expect(classify([("/h/dotfiles/notif", "settings.json", false), ("/h/dotfiles/notif", "other.json", true)], linkedTo: target).isEmpty)
        #expect(classify([("/h/dotfiles/notif", "settings.json", true)]).isEmpty, "no link: that file is not the settings")
    }

    @Test func eachChangeComesOnceInTheOrderSeen() {
        #expect(classify([(paths.stateDirectory, "apply.lock", false), (paths.configDirectory, "settings.json", true),
                          (paths.stateDirectory, "apply.lock", true), (paths.stateDirectory, "deliveries.jsonl", true)])
            == [.schedule, .settings, .deliveries])
    }
}

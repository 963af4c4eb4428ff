import Foundation

/// Where a throwaway user's Tips & Updates entry is: their crontab, systemd user units (files
/// and the enable link), the built-in schedule.
struct ReminderPlaces {
    var cron: Bool
    var systemd: Bool
    var enabled: Bool
    var embedded: Bool
    var holders: [String] {
        (cron ? ["cron"] : []) + (systemd || enabled ? ["systemd"] : []) + (embedded ? ["embedded"] : [])
    }

    static func of(_ user: TestUser) throws -> ReminderPlaces {
        let units = user.home + "/.config/systemd/user"
        return ReminderPlaces(
            cron: try user.crontab().contains("deliver tips-and-updates"),
            systemd: FileManager.default.fileExists(atPath: units + "/notif-tips-and-updates.timer")
                || FileManager.default.fileExists(atPath: units + "/notif-tips-and-updates.service"),
            enabled: (try? FileManager.default.destinationOfSymbolicLink(atPath: units + "/timers.target.wants/notif-tips-and-updates.timer")) != nil,
            embedded: FileManager.default.fileExists(atPath: user.stateDir + "/embedded/tips-and-updates"))
    }
}

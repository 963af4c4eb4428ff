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
        // Entries carry their configuration's tag (`notif-tips-and-updates-TAG.timer`, `tips-and-updates.TAG`).
        func named(_ dir: String, _ prefix: String, _ suffixes: [String] = [""]) -> Bool {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).contains { name in
                name.hasPrefix(prefix) && suffixes.contains { name.hasSuffix($0) }
            }
        }
        return ReminderPlaces(
            cron: try user.crontab().contains("deliver --quiet tips-and-updates"),
            systemd: named(units, "notif-tips-and-updates", [".timer", ".service"]),
            enabled: named(units + "/timers.target.wants", "notif-tips-and-updates", [".timer"]),
            embedded: named(user.stateDir + "/embedded", "tips-and-updates"))
    }
}

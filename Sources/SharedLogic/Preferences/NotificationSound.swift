/// The saved sound choice. A preference only: reminders use the desktop's default sound.
public enum NotificationSound: String, CaseIterable, Sendable {
    case `default`, chime, bell, silent

    /// The next choice in `allCases` order, wrapping around (`step` -1 goes back).
    public func cycled(by step: Int) -> NotificationSound {
        let all = Self.allCases
        let index = all.firstIndex(of: self)!
        return all[((index + step) % all.count + all.count) % all.count]
    }
}

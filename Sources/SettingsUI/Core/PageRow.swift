import SharedLogic

/// A row of the Notifications page: one entry of the table, at its place (top to bottom).
public struct PageRow: Hashable, Sendable {
    /// Its place, from 0 at the top.
    public let rawValue: Int
    /// The toggle or the sound choice it shows.
    public let item: CatalogItem

    public init(rawValue: Int, item: CatalogItem) {
        self.rawValue = rawValue
        self.item = item
    }

    /// The rows of `catalog`, top to bottom.
    public static func rows(in catalog: NotifCatalog) -> [PageRow] {
        catalog.items.enumerated().map { PageRow(rawValue: $0.offset, item: $0.element) }
    }

    /// notif's own rows.
    public static var allCases: [PageRow] { rows(in: .standard) }

    public static let pushNotifications = row(.pushNotifications)
    public static let tipsAndUpdates = row(.tipsAndUpdates)
    public static let queueAlerts = row(.queueAlerts)
    public static let promotions = row(.promotions)
    public static let sound = allCases.first { $0.item == .sound }!
    public static let vibration = row(.vibration)

    private static func row(_ toggle: PreferenceToggle) -> PageRow { allCases.first { $0.toggle == toggle }! }

    public var setting: Setting {
        switch item {
        case .toggle(let spec): return .toggle(spec.toggle)
        case .sound: return .sound
        }
    }

    public var toggle: PreferenceToggle? {
        if case .toggle(let spec) = item { return spec.toggle }
        return nil
    }

    /// The row's label.
    public var label: String {
        switch item {
        case .toggle(let spec): return spec.label
        case .sound: return "Sound"
        }
    }

    /// Rows the master switch governs: kept but disabled (and skipped by focus) while it is off.
    public var dependsOnMaster: Bool {
        if case .toggle(let spec) = item { return spec.pausedByMaster }
        return true
    }

    public func isEnabled(in preferences: NotificationPreferences) -> Bool {
        !dependsOnMaster || preferences.pushNotifications
    }

    /// A short description shown beside the switch, in `catalog` (a reminder's schedule, or the toggle's detail).
    public func detail(in catalog: NotifCatalog) -> String {
        guard case .toggle(let spec) = item else { return "" }
        return catalog.reminder(following: spec.toggle)?.scheduleHeading ?? spec.detail
    }

    /// The detail in notif's own table.
    public var detail: String { detail(in: .standard) }
}

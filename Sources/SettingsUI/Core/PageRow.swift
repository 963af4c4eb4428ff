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

    /// The row of `toggle` in notif's own table.
    public static func toggle(_ toggle: PreferenceToggle) -> PageRow { allCases.first { $0.item == .toggle(toggle) }! }

    /// The sound choice's row in notif's own table.
    public static let sound = allCases.first { $0.item == .sound }!

    public var toggle: PreferenceToggle? { item.toggle }

    /// Rows the master switch governs are kept but disabled (and skipped by focus) while it is off.
    public func isEnabled(in preferences: NotificationPreferences) -> Bool {
        !item.dependsOnMaster || preferences[.pushNotifications]
    }
}

import SharedLogic
import Storage

/// notif's use cases over real files and schedulers: apply, deliver, test, status. The page and
/// the command line both go through here. One concern per file: `+Schedulers`, `+EntryCommand`,
/// `+Apply`, `+Session`, `+Delivery`, `+DeliveryLog`, `StatusReport`, `SchedulerMoves`, `RemovalHint`.
public struct ReminderService: Sendable {
    public let context: NotifContext

    public init(context: NotifContext) { self.context = context }

    /// Every reminder this notif knows, from its table.
    public var reminders: [LocalReminder] { context.catalog.reminders }
}

/// Guest projects schedule reminders on this machine; Account projects get notifications from the server.
public enum ProjectMode: String, CaseIterable, Sendable {
    case guest, account
}

import SharedLogic

/// Stands in when no scheduler can be used, so apply reports each planned reminder as failed with the reason.
struct UnavailableGateway: LocalNotificationGateway {
    let name = "none"
    let reason: String
    /// No scheduler holds nothing: with nothing planned, apply has nothing to do.
    func installed() throws(GatewayError) -> [String: String] { throw GatewayError(reason, schedulerMissing: true) }
    func render(_ entry: ScheduledEntry) throws(GatewayError) -> String { throw GatewayError(reason) }
    func install(_ entry: ScheduledEntry) throws(GatewayError) { throw GatewayError(reason) }
    func cancel(_ id: String) throws(GatewayError) { throw GatewayError(reason) }
}

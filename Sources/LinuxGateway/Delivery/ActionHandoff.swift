import SharedLogic

/// Shows a reminder with its buttons from a process that outlives the one delivering it: the
/// scheduled job must not wait for the person. `start` returns once the notification service
/// has accepted the notification (its id), or why it was not shown.
public protocol ActionHandoff: Sendable {
    /// - Parameters:
    ///   - environment: the session's variables (the bus to use), as changes to this process's.
    ///   - timeout: seconds the service may take to accept it.
    func start(environment: [String: String?], timeout: Double) -> Result<String, GatewayError>
}

import LinuxGateway
import SharedLogic
import Storage

/// Account projects: log in and out, keep this device's token registered with the server, and
/// read the notification history (with the last good copy when the server is away). Guest
/// projects never reach any of it: every call checks the mode first.
public struct AccountService: Sendable {
    public let reminders: ReminderService
    let transport: any HTTPTransport
    let appVersion: String

    public init(reminders: ReminderService, transport: any HTTPTransport, appVersion: String) {
        self.reminders = reminders
        self.transport = transport
        self.appVersion = appVersion
    }

    public var context: NotifContext { reminders.context }
    public var store: AccountStore { AccountStore(state: context.state) }

    /// What a login did.
    public struct LoginOutcome: Sendable {
        public let server: ServerURL
        public let apply: ApplyOutcome
        public let registration: RegistrationState
    }

    /// Registers this device with the server first: a refused token or a host that does not
    /// exist changes nothing. Then saves the server and token and switches to Account
    /// (cancelling every Guest reminder at once). A server that is only unreachable or failing
    /// right now still logs in, with the registration pending and retried later.
    public func login(server text: String, authToken: String) throws(AccountError) -> LoginOutcome {
        let server = try ServerURL(parsing: text)
        let token = authToken.trimmingNewlines
        guard !token.isEmpty else { throw AccountError(.local, "the auth token is empty") }
        guard !token.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } ?? false }) else {
            throw AccountError(.local, "the auth token holds control characters")
        }
        // A bearer token is printable ASCII (RFC 6750); anything else (bytes that are not UTF-8
        // became U+FFFD on the way in) would be sent changed.
        guard token.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
            throw AccountError(.local, "the auth token holds characters other than printable ASCII; check what was pasted")
        }
        let device: String
        do {
            device = try store.deviceToken()
        } catch {
            throw AccountError(.local, error.description)
        }
        let now = ISO8601.format(context.clock.now(), in: context.zone)
        var registration: RegistrationState = .registered(at: now)
        do {
            try AccountAPI(server: server, transport: transport).register(deviceToken: device, authToken: token, appVersion: appVersion)
        } catch {
            switch error.kind {
            case .unauthorized, .unknownHost, .badURL, .local:
                throw AccountError(error.kind, "not logged in: \(error.message)")
            default:
                registration = .pending(reason: error.message)
            }
        }
        do {
            try store.saveAuthToken(token)
            try context.store.update { preferences in
                preferences.mode = .account
                preferences.accountServer = server.description
            }
        } catch {
            throw AccountError(.local, "\(error)")
        }
        try? store.saveRegistration(AccountStore.Registration(
            server: server.description, deviceToken: device, authFingerprint: SHA256.hex(token), state: registration), time: now)
        let applied: ApplyOutcome
        do {
            applied = try reminders.apply()
        } catch {
            throw AccountError(.local, "logged in, but could not cancel Guest reminders: \(error)")
        }
        return LoginOutcome(server: server, apply: applied, registration: registration)
    }

    /// What a logout did.
    public struct LogoutOutcome: Sendable {
        public let unregisterProblem: String?
        public let apply: ApplyOutcome?
        public let applyProblem: String?
    }

    /// Unregisters (best effort), forgets the token, switches back to Guest and re-applies.
    public func logout() throws(AccountError) -> LogoutOutcome {
        var problem: String?
        if let token = store.authToken(), let registration = store.registration(),
           let server = try? ServerURL(parsing: registration.server) {
            do {
                try AccountAPI(server: server, transport: transport).unregister(deviceToken: registration.deviceToken, authToken: token)
            } catch {
                problem = error.message
            }
        }
        store.forget()
        do {
            try context.store.update { $0.mode = .guest }
        } catch {
            throw AccountError(.local, "\(error)")
        }
        do {
            return LogoutOutcome(unregisterProblem: problem, apply: try reminders.apply(), applyProblem: nil)
        } catch {
            return LogoutOutcome(unregisterProblem: problem, apply: nil, applyProblem: error.description)
        }
    }

    /// Registers this device unless this (device token, auth token, server) was already
    /// registered. A failure is remembered as pending and tried again next time.
    @discardableResult
    public func ensureRegistered() -> RegistrationState {
        guard let preferences = try? context.store.load().preferences, preferences.mode == .account,
              let serverText = preferences.accountServer, let token = store.authToken() else { return .none }
        let now = ISO8601.format(context.clock.now(), in: context.zone)
        guard let server = try? ServerURL(parsing: serverText) else {
            return .pending(reason: "the saved server URL '\(serverText)' is not usable")
        }
        let device: String
        do {
            device = try store.deviceToken()
        } catch {
            return .pending(reason: error.description)
        }
        let fingerprint = SHA256.hex(token)
        if let previous = store.registration(), previous.server == server.description, previous.deviceToken == device,
           previous.authFingerprint == fingerprint, case .registered = previous.state {
            return previous.state
        }
        var record = AccountStore.Registration(server: server.description, deviceToken: device, authFingerprint: fingerprint, state: .registered(at: now))
        do {
            try AccountAPI(server: server, transport: transport).register(deviceToken: device, authToken: token, appVersion: appVersion)
        } catch {
            record.state = .pending(reason: error.message)
        }
        try? store.saveRegistration(record, time: now)
        return record.state
    }

    /// Where this device stands with the server.
    public func registrationState() -> RegistrationState {
        guard let token = store.authToken(), let registration = store.registration(),
              registration.authFingerprint == SHA256.hex(token) else {
            return store.authToken() == nil ? .none : .pending(reason: "not registered yet")
        }
        return registration.state
    }

    /// The server's history, or the last good copy (with why) when it cannot be fetched.
    public struct History: Sendable {
        /// The items with a valid id (`ServerNotification.isValidID`): an id that could carry
        /// control characters or markup is never shown, stored or logged.
        public let items: [ServerNotification]
        /// How many items the server sent with an invalid id (left out of `items`).
        public var skipped = 0
        /// Set when `items` is the cached copy: when it was fetched.
        public let cachedAt: String?
        public let problem: AccountError?
    }

    public func history() throws(AccountError) -> History {
        guard let preferences = try? context.store.load().preferences, preferences.mode == .account else {
            throw AccountError(.notLoggedIn, "this is a Guest project: there is no server history")
        }
        guard let token = store.authToken(), let serverText = preferences.accountServer else {
            throw AccountError(.notLoggedIn, "not logged in: run `notif account login --server URL`")
        }
        let server = try ServerURL(parsing: serverText)
        do {
            let all = try AccountAPI(server: server, transport: transport).history(authToken: token)
            let items = all.filter(\.hasValidID)
            try? store.saveHistory(items, fetchedAt: ISO8601.format(context.clock.now(), in: context.zone))
            return History(items: items, skipped: all.count - items.count, cachedAt: nil, problem: nil)
        } catch {
            if error.kind != .unauthorized, let cached = store.cachedHistory() {
                return History(items: cached.items.filter(\.hasValidID), cachedAt: cached.fetchedAt, problem: error)
            }
            throw error
        }
    }
}

import Glibc
import SharedLogic
import Storage

/// Where a registration stands.
public enum RegistrationState: Equatable, Sendable {
    case registered(at: String)
    case pending(reason: String)
    case none
}

/// Account files in the state directory, all 0600: the auth token (its only copy), the
/// device token (made once), the registration record and the last good history.
public struct AccountStore: Sendable {
    let state: StateFiles

    public init(state: StateFiles) { self.state = state }

    static let authTokenFile = "auth-token"
    static let deviceTokenFile = "device-token"
    static let registrationFile = "registration.json"
    static let historyCacheFile = "history-cache.json"
    static let shownFile = "history-shown.json"
    static let attemptsFile = "history-attempts.json"

    public func authToken() -> String? {
        guard let text = try? state.read(Self.authTokenFile) else { return nil }
        let token = text.trimmingNewlines
        return token.isEmpty ? nil : token
    }

    public func saveAuthToken(_ token: String) throws(FileError) {
        try state.write(Self.authTokenFile, token + "\n")
    }

    public func forget() {
        for file in [Self.authTokenFile, Self.registrationFile, Self.historyCacheFile, Self.shownFile, Self.attemptsFile] {
            try? state.remove(file)
        }
    }

    /// The device token, made on first use from the kernel's random source and kept.
    public func deviceToken() throws(FileError) -> String {
        if let text = try state.read(Self.deviceTokenFile)?.trimmingNewlines, text.count >= 32 { return text }
        var bytes = [UInt8](repeating: 0, count: 24)
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0, Glibc.read(fd, &bytes, bytes.count) == bytes.count else {
            if fd >= 0 { close(fd) }
            throw FileError("read", "/dev/urandom")
        }
        close(fd)
        let token = "notif-linux-" + Hex.of(bytes: bytes)
        try state.write(Self.deviceTokenFile, token + "\n")
        return token
    }

    /// The last registration attempt: for which server, device token and auth token (by hash).
    public struct Registration: Equatable, Sendable {
        public var server: String
        public var deviceToken: String
        public var authFingerprint: String
        public var state: RegistrationState
    }

    public func registration() -> Registration? {
        guard let text = try? state.read(Self.registrationFile), let doc = try? JSONParser.parse(text),
              let server = doc["server"]?.stringValue, let device = doc["deviceToken"]?.stringValue,
              let fingerprint = doc["authFingerprint"]?.stringValue else { return nil }
        let when = doc["time"]?.stringValue ?? ""
        let registrationState: RegistrationState = doc["state"]?.stringValue == "registered"
            ? .registered(at: when) : .pending(reason: doc["reason"]?.stringValue ?? "not yet registered")
        return Registration(server: server, deviceToken: device, authFingerprint: fingerprint, state: registrationState)
    }

    public func saveRegistration(_ registration: Registration, time: String) throws(FileError) {
        var members = [
            JSONMember("server", .string(registration.server)),
            JSONMember("deviceToken", .string(registration.deviceToken)),
            JSONMember("authFingerprint", .string(registration.authFingerprint)),
            JSONMember("time", .string(time)),
        ]
        switch registration.state {
        case .registered: members.append(JSONMember("state", .string("registered")))
        case .pending(let reason):
            members.append(JSONMember("state", .string("pending")))
            members.append(JSONMember("reason", .string(reason)))
        case .none: members.append(JSONMember("state", .string("pending")))
        }
        try state.write(Self.registrationFile, JSONWriter.pretty(.object(members)))
    }

    /// The last history the server gave, and when.
    public func cachedHistory() -> (items: [ServerNotification], fetchedAt: String)? {
        guard let text = try? state.read(Self.historyCacheFile), let doc = try? JSONParser.parse(text),
              let fetchedAt = doc["fetchedAt"]?.stringValue, let items = doc["items"],
              let list = try? ServerNotification.list(from: Array(JSONWriter.compact(items).utf8)) else { return nil }
        return (list, fetchedAt)
    }

    public func saveHistory(_ items: [ServerNotification], fetchedAt: String) throws(FileError) {
        try state.write(Self.historyCacheFile, JSONWriter.pretty(.object([
            JSONMember("fetchedAt", .string(fetchedAt)), JSONMember("items", .array(items.map(\.json))),
        ])))
    }

    /// Ids of server notifications already shown on this desktop by `notif daemon`, newest first.
    public func shownIDs() -> [String]? {
        guard let text = try? state.read(Self.shownFile), let doc = try? JSONParser.parse(text),
              case .array(let ids) = doc else { return nil }
        return ids.compactMap(\.stringValue)
    }

    /// Saves the shown ids in their order (the poller keeps it bounded: `AccountPoller.remembered`).
    public func saveShownIDs(_ ids: [String]) throws(FileError) {
        try state.write(Self.shownFile, JSONWriter.pretty(.array(ids.map { .string($0) })))
    }

    /// How many times showing each not yet shown server notification has failed (next to the
    /// shown ids), so a failing item is given up on after a few polls instead of retried forever.
    public func failedAttempts() -> [String: Int] {
        var result: [String: Int] = [:]
        for member in state.objectMembers(Self.attemptsFile) {
            if let count = member.value.intValue, count > 0 { result[member.key] = count }
        }
        return result
    }

    public func saveFailedAttempts(_ attempts: [String: Int]) throws(FileError) {
        if attempts.isEmpty {
            if (try? state.read(Self.attemptsFile)) != nil { try state.remove(Self.attemptsFile) }
            return
        }
        try state.write(Self.attemptsFile, JSONWriter.pretty(.object(attempts.keys.sorted().map {
            JSONMember($0, .int(attempts[$0]!))
        })))
    }
}

extension String {
    var trimmingNewlines: String {
        var s = self[...]
        while let last = s.last, last.isNewline || last == " " { s = s.dropLast() }
        while let first = s.first, first.isNewline || first == " " { s = s.dropFirst() }
        return String(s)
    }
}

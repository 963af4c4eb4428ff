/// A JSON document held as values, keeping object key order and number literals exactly as read,
/// so a file can be rewritten without disturbing what notif does not own.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// The number's literal text, kept verbatim (`1`, `-0.5e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in file order. Duplicate keys are rejected by the parser.
    case object([JSONMember])

    public static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The value of an integral number literal (`3`, not `3.5` or `1e2`) that fits an Int.
    public var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        return Int(text)
    }

    public var objectMembers: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A short name of the value's type for messages (`a string`, `an object`).
    public var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The object with `key` set to `value`: replaced in place when present, appended otherwise.
    public func setting(_ key: String, to value: JSONValue) -> JSONValue {
        var members = objectMembers ?? []
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key, value))
        }
        return .object(members)
    }

    /// The object without `key`.
    public func removing(_ key: String) -> JSONValue {
        .object((objectMembers ?? []).filter { $0.key != key })
    }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Hashable, Sendable {
    public var key: String
    public var value: JSONValue
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

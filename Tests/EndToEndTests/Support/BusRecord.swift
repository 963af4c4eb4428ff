import Foundation

/// What `dbus-monitor` printed about the notification interface: every `Notify` with its
/// arguments and the id its reply gave, and every `ActionInvoked` and `NotificationClosed`.
struct BusRecord {
    /// One `Notify` call.
    struct Notify {
        var sender = "", serial = ""
        /// app name, icon, summary, body (the call's top-level strings, in order).
        var strings: [String] = []
        /// The actions array: key, label, key, label…
        var actions: [String] = []
        /// The hints, each value as dbus-monitor prints it (`string "notif"`, `byte 1`).
        var hints: [String: String] = [:]
        /// The id the server answered with.
        var id: UInt32?
        var app: String { strings.first ?? "" }
        var icon: String { strings.count > 1 ? strings[1] : "" }
        var summary: String { strings.count > 2 ? strings[2] : "" }
        var body: String { strings.count > 3 ? strings[3] : "" }
    }

    private(set) var notifies: [Notify] = []
    /// `ActionInvoked ID KEY` and `NotificationClosed ID REASON`, in the order sent.
    private(set) var signals: [(member: String, id: UInt32, value: String)] = []

    init(parsing text: String) {
        var replies: [String: UInt32] = [:]   // "destination serial" → the first uint32 of the reply
        for block in Self.blocks(text) {
            let header = block[0]
            func field(_ name: String) -> String {
                header.split(separator: " ").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: [";"]) } ?? ""
            }
            let body = block.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
            let member = field("member")
            if header.hasPrefix("method call"), member == "Notify" {
                notifies.append(Self.notify(body, sender: field("sender"), serial: field("serial")))
            } else if header.hasPrefix("method return"), let first = body.first, first.hasPrefix("uint32 ") {
                replies[field("destination") + " " + field("reply_serial")] = UInt32(first.dropFirst("uint32 ".count))
            } else if header.hasPrefix("signal"), member == "ActionInvoked" || member == "NotificationClosed", body.count >= 2,
                      let id = UInt32(body[0].split(separator: " ").last ?? "") {
                let value = body[1].hasPrefix("string ") ? Self.string(body[1]) : String(body[1].split(separator: " ").last ?? "")
                signals.append((member, id, value))
            }
        }
        for index in notifies.indices {
            notifies[index].id = replies[notifies[index].sender + " " + notifies[index].serial]
        }
    }

    /// The signals about notification `id`, in words: "ActionInvoked turn-off", "NotificationClosed 2".
    func signals(for id: UInt32) -> [String] {
        signals.filter { $0.id == id }.map { "\($0.member) \($0.value)" }
    }

    /// The last `Notify` whose summary is `summary`.
    func notify(summary: String) -> Notify? { notifies.last { $0.summary == summary } }

    private static func blocks(_ text: String) -> [[String]] {
        var blocks: [[String]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            if line.first?.isWhitespace == false { blocks.append([line]) } else if !blocks.isEmpty { blocks[blocks.count - 1].append(line) }
        }
        return blocks
    }

    private static func notify(_ lines: [String], sender: String, serial: String) -> Notify {
        var call = Notify(sender: sender, serial: serial)
        var depth = 0, arrays = 0
        var key: String?
        for line in lines {
            if line.hasSuffix("array [") {
                if depth == 0 { arrays += 1 }
                depth += 1
            } else if line == "]" {
                depth -= 1
            } else if depth == 0, line.hasPrefix("string ") {
                call.strings.append(string(line))
            } else if depth == 1, arrays == 1, line.hasPrefix("string ") {
                call.actions.append(string(line))
            } else if arrays == 2, line.hasPrefix("string "), key == nil {
                key = string(line)
            } else if arrays == 2, line.hasPrefix("variant"), let name = key {
                call.hints[name] = line.dropFirst("variant".count).trimmingCharacters(in: .whitespaces)
                key = nil
            }
        }
        return call
    }

    /// `string "text"` → text.
    private static func string(_ line: String) -> String {
        String(line.dropFirst("string \"".count).dropLast())
    }
}

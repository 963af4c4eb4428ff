import Foundation

/// One line of a user's `deliveries.jsonl`: when, what kind of run, and what came of it.
struct DeliveryLine: CustomStringConvertible {
    let time: Date
    let kind: String
    let outcome: String
    let detail: String
    let text: String
    var description: String { text }

    /// The attempts in `user`'s delivery log, oldest first (lines that do not parse are dropped).
    static func all(of user: TestUser) -> [DeliveryLine] { parse(user.read(user.stateDir + "/deliveries.jsonl") ?? "") }

    /// The attempts in a sandbox's delivery log, oldest first.
    static func all(of sandbox: Sandbox) -> [DeliveryLine] { parse(sandbox.read(sandbox.stateDir + "/deliveries.jsonl") ?? "") }

    private static func parse(_ text: String) -> [DeliveryLine] {
        return text.split(separator: "\n").compactMap { line in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  let time = (object["time"] as? String).flatMap({ ISO8601DateFormatter().date(from: $0) }) else { return nil }
            return DeliveryLine(time: time, kind: object["kind"] as? String ?? "", outcome: object["outcome"] as? String ?? "",
                                detail: object["detail"] as? String ?? "", text: String(line))
        }
    }
}

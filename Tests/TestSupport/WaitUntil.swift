import Foundation

/// Polls `condition` every 20 ms until it holds or `seconds` pass; the answer is whether it held.
public func waitUntil(_ seconds: TimeInterval, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
        if try condition() { return true }
        usleep(20_000)
    } while Date() < deadline
    return try condition()
}

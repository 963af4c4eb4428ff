import Foundation
import Testing
import SharedLogic
@testable import Storage

/// deliveries.jsonl is rotated to deliveries.jsonl.1 before it would pass its limit, and reads
/// continue into the .1 file.
@Suite struct DeliveryLogRotationTests {
    func record(_ i: Int) -> DeliveryRecord {
        DeliveryRecord(time: "2026-12-01T09:00:00+01:00", day: CivilDate(year: 2026, month: 12, day: 1),
                       reminder: "server:\(i)", kind: .push, outcome: .failed, detail: "n\(i)")
    }

    func lineSize(_ i: Int) -> Int { (JSONWriter.compact(record(i).json) + "\n").utf8.count }

    @Test func anAppendPastTheLimitStartsAFreshFileAndKeepsTheOldOneAsDotOne() throws {
        let dir = TempDir()
        let limit = lineSize(10) * 4   // room for four records
        let log = DeliveryLog(path: dir.path + "/deliveries.jsonl", rotateAt: limit)
        for i in 10..<14 { try log.append(record(i)) }
        #expect(dir.list("") == ["deliveries.jsonl"], "four records fit")
        try log.append(record(14))
        #expect(dir.list("") == ["deliveries.jsonl", "deliveries.jsonl.1"])
        #expect(dir.read("deliveries.jsonl") == JSONWriter.compact(record(14).json) + "\n", "the new record starts a fresh file")
        #expect(dir.read("deliveries.jsonl.1")?.split(separator: "\n").count == 4)
        #expect(dir.mode("deliveries.jsonl") == 0o600)
        // Newest first across both files, and the current file alone when it has enough.
        #expect(try log.newest(3).map(\.detail) == ["n14", "n13", "n12"])
        #expect(try log.newest(1).map(\.detail) == ["n14"])
        #expect(try log.newest(100).map(\.detail) == ["n14", "n13", "n12", "n11", "n10"])
        #expect(try log.newest(2) { $0.detail != "n14" }.map(\.detail) == ["n13", "n12"])
    }

    @Test func onlyOneDotOneIsEverKeptAndNeitherFileOutgrowsTheLimit() throws {
        let dir = TempDir()
        let limit = 2000
        let log = DeliveryLog(path: dir.path + "/deliveries.jsonl", rotateAt: limit)
        for i in 0..<500 { try log.append(record(i)) }
        #expect(dir.list("") == ["deliveries.jsonl", "deliveries.jsonl.1"])
        for name in ["deliveries.jsonl", "deliveries.jsonl.1"] {
            #expect((dir.read(name)?.utf8.count ?? .max) <= limit, "\(name)")
        }
        let newest = try log.newest(1000)
        #expect(newest.first?.detail == "n499")
        // Exactly the records of both files, in order, with no gap between them.
        let kept = newest.map(\.detail)
        #expect(kept == (0..<500).reversed().prefix(kept.count).map { "n\($0)" })
        #expect(kept.count > limit / lineSize(499), "the .1 file was read too")
    }

    @Test func concurrentAppendsRotateOnceAndLoseNothingInTheCurrentPair() throws {
        let dir = TempDir()
        let lineSize = lineSize(1000)
        let log = DeliveryLog(path: dir.path + "/deliveries.jsonl", rotateAt: lineSize * 100)
        for i in 0..<95 { try log.append(record(1000 + i)) }
        // Eight writers cross the limit together: one rotation, the records split between the files.
        DispatchQueue.concurrentPerform(iterations: 8) { w in
            for j in 0..<5 { try? log.append(record(2000 + w * 10 + j)) }
        }
        #expect(dir.list("") == ["deliveries.jsonl", "deliveries.jsonl.1"])
        let all = try log.newest(1000)
        #expect(all.count == 135, "95 + 40 records across the two files: \(all.count)")
        #expect(Set(all.map(\.detail)).count == 135)
    }

    @Test func aSingleRecordLargerThanTheLimitIsStillWritten() throws {
        let dir = TempDir()
        let log = DeliveryLog(path: dir.path + "/deliveries.jsonl", rotateAt: 10)
        try log.append(record(1))
        try log.append(record(2))
        #expect(try log.newest(5).map(\.detail) == ["n2", "n1"])
        #expect(dir.list("") == ["deliveries.jsonl", "deliveries.jsonl.1"])
    }
}

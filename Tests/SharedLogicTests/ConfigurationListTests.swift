import Testing
@testable import SharedLogic

@Suite struct ConfigurationListTests {
    let a = ConfigurationRecord(settings: "/home/u/.config/notif/settings.json", tag: "0123abcd", home: "/home/u",
                                configHome: "/home/u/.config", stateHome: "/home/u/.local/state")
    let b = ConfigurationRecord(settings: "/home/u/b\tconfig\n/notif/settings.json", tag: "89efabcd", home: "/home/u",
                                configHome: "/home/u/b\tconfig\n", stateHome: "/home/u/b \"state\"")

    @Test func recordsRoundTripOneALineWhateverTheirPathsHold() {
        let list = ConfigurationList().adding(a)!.adding(b)!
        let text = String(decoding: list.bytes, as: UTF8.self)
        #expect(text.split(separator: "\n").count == 3, "a header and one line each: \(text)")
        #expect(text.hasPrefix(ConfigurationList.header + "\n"))
        let read = ConfigurationList(parsing: list.bytes)
        #expect(read.records == [a, b] && read.problems.isEmpty)
        #expect(read.adding(a) == nil, "already there: nothing to write")
    }

    @Test func linesThatAreNotRecordsAreNamedByNumberAndKeptByteForByte() {
        let junk: [UInt8] = Array("{\"settings\": \"/x\"".utf8) + [0xff]
        let relative = Array(a.line.replacing("\"/home/u/.local/state\"", with: "\"state\"").utf8)
        let bytes = Array("# comment\n\n\(a.line)\n".utf8) + junk + [10] + relative + [10] + Array("[1]\n".utf8)
        let list = ConfigurationList(parsing: bytes)
        #expect(list.records == [a])
        #expect(list.problems.count == 3, "\(list.problems)")
        #expect(list.problems[0].hasPrefix("line 4: not JSON"), "\(list.problems)")
        #expect(list.problems[1] == "line 5: \"stateHome\" is not an absolute path")
        #expect(list.problems[2] == "line 6: not a JSON object")
        // Dropping the record keeps the comment and the lines that are not records, exactly.
        let left = list.removing([a])
        #expect(left.records.isEmpty && !left.isEmpty)
        #expect(left.bytes == Array((ConfigurationList.header + "\n# comment\n").utf8) + junk + [10] + relative + [10] + Array("[1]\n".utf8))
    }

    @Test func droppingEveryRecordLeavesNothingToKeep() {
        let list = ConfigurationList(parsing: ConfigurationList().adding(a)!.adding(b)!.bytes)
        #expect(list.removing([a]).records == [b])
        #expect(list.removing([a, b]).isEmpty)
        // notif's own header goes with the last record; someone's comment stays.
        #expect(ConfigurationList(parsing: Array((ConfigurationList.header + "\n").utf8)).isEmpty)
        let commented = ConfigurationList(parsing: Array("# mine\n".utf8))
        #expect(!commented.isEmpty && commented.problems.isEmpty)
        #expect(commented.bytes == Array((ConfigurationList.header + "\n# mine\n").utf8))
    }

    @Test func aTagMustBeAHash() {
        let line = a.line.replacing("0123abcd", with: "0123ABCD")
        #expect(ConfigurationList(parsing: Array(line.utf8)).problems == ["line 1: \"tag\" is not 8 hex digits"])
    }
}

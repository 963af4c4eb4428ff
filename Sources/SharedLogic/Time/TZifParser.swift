/// Reads TZif files (RFC 8536, versions 1 to 4) into transition tables, validating every field.
enum TZifParser {
    /// What a TZif file says: the local time types, the transitions between them and the footer rule.
    struct Contents {
        var types: [LocalTimeType]
        /// Strictly ascending transition instants.
        var transitionTimes: [Int64]
        /// For each transition, the index into `types` in effect from that instant on.
        var transitionTypes: [UInt8]
        /// The TZ string for instants after the last transition, if the file has one.
        var footer: PosixTimeZone?
    }

    /// The six counts of a TZif header.
    private struct Header {
        var version: UInt8
        var isUTCCount, isStandardCount, leapCount, timeCount, typeCount, charCount: Int

        /// Bytes of the data block that follows this header, with `timeSize`-byte times.
        func dataBlockSize(timeSize: Int) -> Int {
            timeCount * (timeSize + 1) + typeCount * 6 + charCount
                + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
        }
    }

    static func parse(_ bytes: [UInt8]) throws(ZoneRulesError) -> Contents {
        var reader = ByteReader(bytes)
        let first = try readHeader(&reader)
        guard first.version >= UInt8(ascii: "2") else {
            return try readDataBlock(&reader, first, timeSize: 4)
        }
        try reader.skip(first.dataBlockSize(timeSize: 4), "version 1 data block")
        let second = try readHeader(&reader)
        guard second.version >= UInt8(ascii: "2") else {
            throw ZoneRulesError("second header has version \(second.version), expected 2 or later")
        }
        var contents = try readDataBlock(&reader, second, timeSize: 8)
        contents.footer = try readFooter(&reader)
        return contents
    }

    private static func readHeader(_ reader: inout ByteReader) throws(ZoneRulesError) -> Header {
        guard Array(try reader.take(4, "magic")) == Array("TZif".utf8) else {
            throw ZoneRulesError("not TZif data (bad magic)")
        }
        let version = try reader.uint8("version")
        guard version == 0 || (UInt8(ascii: "2")...UInt8(ascii: "9")).contains(version) else {
            throw ZoneRulesError("unknown TZif version byte \(version)")
        }
        try reader.skip(15, "reserved header bytes")
        var counts: [Int] = []
        for name in ["isutcnt", "isstdcnt", "leapcnt", "timecnt", "typecnt", "charcnt"] {
            let count = Int(try reader.uint32(name))
            // Each count is bounded by the data that must follow it.
            guard count <= reader.remaining else { throw ZoneRulesError("\(name) \(count) exceeds the data") }
            counts.append(count)
        }
        let header = Header(version: version, isUTCCount: counts[0], isStandardCount: counts[1],
                            leapCount: counts[2], timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
        guard header.typeCount >= 1, header.typeCount <= 256 else {
            throw ZoneRulesError("typecnt must be 1...256, got \(header.typeCount)")
        }
        guard header.charCount >= 1 else { throw ZoneRulesError("charcnt must not be zero") }
        guard header.isUTCCount == 0 || header.isUTCCount == header.typeCount,
              header.isStandardCount == 0 || header.isStandardCount == header.typeCount
        else { throw ZoneRulesError("isutcnt/isstdcnt must be zero or typecnt") }
        return header
    }

    private static func readDataBlock(
        _ reader: inout ByteReader, _ header: Header, timeSize: Int
    ) throws(ZoneRulesError) -> Contents {
        guard header.dataBlockSize(timeSize: timeSize) <= reader.remaining else {
            throw ZoneRulesError("truncated data block")
        }
        var times: [Int64] = []
        times.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            let time = timeSize == 8 ? try reader.int64("transition time")
                                     : Int64(try reader.int32("transition time"))
            if let previous = times.last, time <= previous {
                throw ZoneRulesError("transition times are not strictly ascending")
            }
            times.append(time)
        }
        let indices = Array(try reader.take(header.timeCount, "transition types"))
        if let bad = indices.first(where: { Int($0) >= header.typeCount }) {
            throw ZoneRulesError("transition type index \(bad) out of range")
        }
        var rawTypes: [(offset: Int32, isDST: UInt8, designation: Int)] = []
        for _ in 0..<header.typeCount {
            rawTypes.append((try reader.int32("utoff"), try reader.uint8("isdst"), Int(try reader.uint8("desigidx"))))
        }
        let chars = Array(try reader.take(header.charCount, "time zone designations"))
        try reader.skip(header.leapCount * (timeSize + 4), "leap second records")
        for indicator in try reader.take(header.isStandardCount + header.isUTCCount, "indicators") where indicator > 1 {
            throw ZoneRulesError("standard/UT indicator must be 0 or 1")
        }
        var types: [LocalTimeType] = []
        for raw in rawTypes {
            guard LocalTimeType.plausibleOffsets.contains(Int(raw.offset)) else {
                throw ZoneRulesError("UTC offset \(raw.offset) out of range")
            }
            guard raw.isDST <= 1 else { throw ZoneRulesError("isdst must be 0 or 1") }
            guard raw.designation < chars.count,
                  let end = chars[raw.designation...].firstIndex(of: 0)
            else { throw ZoneRulesError("time zone designation not NUL-terminated within charcnt") }
            let abbreviation = String(decoding: chars[raw.designation..<end], as: UTF8.self)
            types.append(LocalTimeType(offset: Int(raw.offset), isDaylightTime: raw.isDST == 1,
                                       abbreviation: abbreviation))
        }
        return Contents(types: types, transitionTimes: times, transitionTypes: indices, footer: nil)
    }

    /// `\n` TZ-string `\n`; an empty TZ string means "no rule".
    private static func readFooter(_ reader: inout ByteReader) throws(ZoneRulesError) -> PosixTimeZone? {
        guard try reader.uint8("footer") == UInt8(ascii: "\n") else {
            throw ZoneRulesError("footer does not start with a newline")
        }
        var text: [UInt8] = []
        while true {
            let byte = try reader.uint8("footer")
            if byte == UInt8(ascii: "\n") { break }
            text.append(byte)
        }
        if text.isEmpty { return nil }
        let string = String(decoding: text, as: UTF8.self)
        guard let rule = PosixTimeZoneParser.parse(string) else {
            throw ZoneRulesError("footer is not a valid POSIX TZ string: \(string)")
        }
        return rule
    }
}

import Testing
import TestSupport
@testable import SharedLogic

/// Writes small TZif files by hand so each field can be exercised.
struct TZifBuilder {
    var version: UInt8 = UInt8(ascii: "2")
    var times: [Int64] = []
    var indices: [UInt8] = []
    var types: [(offset: Int32, isDST: UInt8, designation: UInt8)] = [(0, 0, 0)]
    var chars: [UInt8] = Array("UTC\0".utf8)
    var leapCount = 0
    var indicatorCount = 0
    var footer: String? = ""

    private func header(timeCount: Int) -> [UInt8] {
        var bytes = Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15)
        for count in [indicatorCount, indicatorCount, leapCount, timeCount, types.count, chars.count] {
            bytes += be32(UInt32(count))
        }
        return bytes
    }

    private func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    private func be64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }

    private func block(wide: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        for time in times {
            bytes += wide ? be64(UInt64(bitPattern: time)) : be32(UInt32(bitPattern: Int32(truncatingIfNeeded: time)))
        }
        bytes += indices
        for type in types { bytes += be32(UInt32(bitPattern: type.offset)) + [type.isDST, type.designation] }
        bytes += chars
        for _ in 0..<leapCount { bytes += [UInt8](repeating: 0, count: wide ? 12 : 8) }
        bytes += [UInt8](repeating: 0, count: 2 * indicatorCount)
        return bytes
    }

    var bytes: [UInt8] {
        if version == 0 { return header(timeCount: times.count) + block(wide: false) }
        // Like zic -b slim: an empty version 1 block, then the real 64-bit data.
        var v1 = self
        v1.times = []; v1.indices = []; v1.leapCount = 0; v1.indicatorCount = 0
        var result = v1.header(timeCount: 0) + v1.block(wide: false)
        result += header(timeCount: times.count) + block(wide: true)
        if let footer { result += Array("\n\(footer)\n".utf8) }
        return result
    }
}

@Suite struct TZifTests {
    static func twoZoneBuilder() -> TZifBuilder {
        var builder = TZifBuilder()
        builder.types = [(-18000, 0, 0), (-14400, 1, 4)]
        builder.chars = Array("EST\0EDT\0".utf8)
        builder.times = [1_000_000, 2_000_000, 3_000_000]
        builder.indices = [1, 0, 1]
        return builder
    }

    @Test func versionOneData() throws {
        var builder = Self.twoZoneBuilder()
        builder.version = 0
        let zone = try ZoneRules(tzif: builder.bytes, name: "Test/V1")
        #expect(zone.name == "Test/V1")
        #expect(zone.footer == nil)
        #expect(zone.offset(at: Instant(seconds: 999_999)) == -18000)   // type 0 before the first transition
        #expect(zone.offset(at: Instant(seconds: 1_000_000)) == -14400)
        #expect(zone.abbreviation(at: Instant(seconds: 2_500_000)) == "EST")
        #expect(zone.isDaylightTime(at: Instant(seconds: 9_000_000_000)))  // last type persists without a footer
    }

    @Test(arguments: [UInt8(ascii: "2"), UInt8(ascii: "3"), UInt8(ascii: "4")])
    func laterVersionsUseTheWideBlockAndFooter(version: UInt8) throws {
        var builder = Self.twoZoneBuilder()
        builder.version = version
        builder.times = [-5_000_000_000, 1_000_000, 6_000_000_000]   // outside the 32-bit range
        builder.footer = "EST5EDT,M3.2.0,M11.1.0"
        let zone = try ZoneRules(tzif: builder.bytes, name: "Test/V\(version)")
        #expect(zone.transitionTimes == [-5_000_000_000, 1_000_000, 6_000_000_000])
        #expect(zone.offset(at: Instant(seconds: -5_000_000_001)) == -18000)
        #expect(zone.offset(at: Instant(seconds: -5_000_000_000)) == -14400)
        #expect(zone.offset(at: Instant(seconds: 5_999_999_999)) == -18000)
        // After the last transition, the footer: 2200-01-15 is winter, 2200-07-15 summer.
        #expect(zone.offset(at: TestSupport.utc("2200-01-15T00:00:00Z")) == -18000)
        #expect(zone.offset(at: TestSupport.utc("2200-07-15T00:00:00Z")) == -14400)
    }

    @Test func noTransitionsMeansFooterOrTypeZero() throws {
        var builder = TZifBuilder()
        builder.types = [(3600, 0, 0)]
        builder.chars = Array("ABC\0".utf8)
        builder.footer = "XST-1XDT,M3.5.0/9,M10.5.0/10"
        let withFooter = try ZoneRules(tzif: builder.bytes, name: "A")
        #expect(withFooter.offset(at: TestSupport.utc("2026-07-01T00:00:00Z")) == 7200)
        #expect(withFooter.abbreviation(at: TestSupport.utc("2026-07-01T00:00:00Z")) == "XDT")
        builder.footer = ""
        let withoutFooter = try ZoneRules(tzif: builder.bytes, name: "B")
        #expect(withoutFooter.offset(at: TestSupport.utc("2026-07-01T00:00:00Z")) == 3600)
        #expect(withoutFooter.abbreviation(at: TestSupport.utc("2026-07-01T00:00:00Z")) == "ABC")
        #expect(withoutFooter.resolve(TestSupport.local(2026, 7, 1, 1, 0)) == TestSupport.utc("2026-07-01T00:00:00Z"))
    }

    @Test func leapSecondRecordsAndIndicatorsAreSkipped() throws {
        var builder = Self.twoZoneBuilder()
        builder.leapCount = 3
        builder.indicatorCount = 2
        builder.footer = "EST5"
        let zone = try ZoneRules(tzif: builder.bytes, name: "L")
        #expect(zone.offset(at: Instant(seconds: 1_500_000)) == -14400)
        #expect(zone.footer == PosixTimeZoneParser.parse("EST5"))
    }

    /// One way of damaging an otherwise valid file.
    enum Corruption: String, CaseIterable, Sendable {
        case version, typeIndex, order, isDST, designation, unterminated, minimumOffset, hugeOffset
        case noTypes, noChars, badFooter, missingFooter

        func apply(to b: inout TZifBuilder) {
            switch self {
            case .version: b.version = UInt8(ascii: "1")
            case .typeIndex: b.indices = [1, 0, 2]
            case .order: b.times = [1_000_000, 1_000_000, 3_000_000]
            case .isDST: b.types[1].isDST = 2
            case .designation: b.types[1].designation = 8
            case .unterminated: b.chars = Array("EST\0EDT".utf8)
            case .minimumOffset: b.types[0].offset = Int32.min
            case .hugeOffset: b.types[0].offset = 100_000
            case .noTypes: b.types = []; b.times = []; b.indices = []
            case .noChars: b.chars = []
            case .badFooter: b.footer = "EST5EDT,M3.2.0"
            case .missingFooter: b.footer = nil
            }
        }
    }

    @Test(arguments: Corruption.allCases)
    func rejectsMalformedFields(corruption: Corruption) {
        var builder = Self.twoZoneBuilder()
        #expect((try? ZoneRules(tzif: builder.bytes, name: "intact")) != nil)
        corruption.apply(to: &builder)
        #expect(throws: ZoneRulesError.self) { try ZoneRules(tzif: builder.bytes, name: corruption.rawValue) }
        do {
            _ = try ZoneRules(tzif: builder.bytes, name: corruption.rawValue)
        } catch {
            #expect(!error.message.isEmpty)
        }
    }

    @Test func rejectsBadMagicAndEmptyInput() {
        #expect(throws: ZoneRulesError.self) { try ZoneRules(tzif: [], name: "empty") }
        #expect(throws: ZoneRulesError.self) { try ZoneRules(tzif: Array("TZiX".utf8) + [UInt8](repeating: 0, count: 60), name: "x") }
        // Counts claiming far more data than present.
        var huge = Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
        for _ in 0..<6 { huge += [0xFF, 0xFF, 0xFF, 0xFF] }
        #expect(throws: ZoneRulesError.self) { try ZoneRules(tzif: huge, name: "huge") }
    }

    /// Every strict prefix of a real file is incomplete and must be refused; the whole file is accepted.
    @Test func everyTruncationIsRejected() throws {
        let bytes = try TestSupport.zoneBytes("America/New_York")
        #expect(bytes.count > 1_000)
        var accepted: [Int] = []
        for length in 0..<bytes.count {
            if (try? ZoneRules(tzif: Array(bytes[..<length]), name: "cut")) != nil { accepted.append(length) }
        }
        #expect(accepted.count == 0, "accepted prefixes: \(accepted.prefix(5))")
        #expect((try? ZoneRules(tzif: bytes, name: "whole")) != nil)
    }

    /// Random bytes and randomly damaged real files never crash the parser or the queries on what it accepts.
    @Test func survivesRandomAndCorruptedInput() throws {
        var generator = SeededRandom(seed: 7)
        let real = try TestSupport.zoneBytes("Europe/Berlin")
        var accepted = 0
        var rejected = 0
        for round in 0..<3_000 {
            var bytes: [UInt8]
            switch round % 3 {
            case 0:
                bytes = (0..<Int.random(in: 0...400, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                if round % 2 == 0 { bytes.replaceSubrange(0..<min(5, bytes.count), with: Array("TZif2".utf8)) }
            case 1:
                bytes = real
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            default:
                bytes = real
                let position = Int.random(in: 0..<44, using: &generator)   // damage the header counts
                bytes[position] = UInt8.random(in: 0...255, using: &generator)
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
            }
            do {
                let zone = try ZoneRules(tzif: bytes, name: "fuzz")
                accepted += 1
                for seconds in [Int64.min, -1, 0, 1_800_000_000, 4_000_000_000, Int64.max] {
                    let instant = Instant(seconds: seconds)
                    _ = zone.offset(at: instant)
                    _ = zone.abbreviation(at: instant)
                    _ = ISO8601.format(instant, in: zone)
                }
                let local = TestSupport.local(2026, 3, 29, 2, 30)
                let resolved = zone.resolve(local)
                #expect(zone.localDateTime(of: resolved).date.year >= 2026)
            } catch {
                rejected += 1
                #expect(!error.message.isEmpty)
            }
        }
        #expect(accepted > 0)
        #expect(rejected > 0)
    }
}

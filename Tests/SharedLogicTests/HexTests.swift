import Testing
@testable import SharedLogic

@Suite struct HexTests {
    @Test func bytesAreTwoLowerCaseDigitsEachInOrder() {
        #expect(Hex.of(bytes: [UInt8]()) == "")
        #expect(Hex.of(bytes: [0x00, 0x0f, 0xa0, 0xff, 0x7e]) == "000fa0ff7e")
        #expect(Hex.of(bytes: "1000".utf8) == "31303030")
    }

    @Test func numbersArePaddedToTheWidthAndNeverCut() {
        #expect(Hex.of(0) == "0")
        #expect(Hex.of(UInt32(0x1b), width: 2) == "1b")
        #expect(Hex.of(UInt32(0x7), width: 2) == "07")
        #expect(Hex.of(UInt32(0x2028), width: 4) == "2028")
        #expect(Hex.of(UInt32(0xab), width: 4) == "00ab")
        #expect(Hex.of(UInt32(0xdead_beef), width: 8) == "deadbeef")
        #expect(Hex.of(UInt32(0x1), width: 8) == "00000001")
        #expect(Hex.of(0x10FFFF, width: 4) == "10ffff")
    }

    @Test func theEscapesBuiltOnItKeepTheirForm() {
        #expect(TerminalText.safe("\u{1B}\u{7}") == "\\u{1B}\\u{7}")
        #expect(ASCIIText.escapingJSON("é😀") == "\\u00e9\\ud83d\\ude00")
        #expect(JSONWriter.compact(.string("\u{1}")) == "\"\\u0001\"")
        #expect(ShortHash.of("").count == 8)
        #expect(ShortHash.isHash(Substring(ShortHash.of("/home/u/.config/notif/settings.json"))))
    }
}

import Testing
import CNcursesw
import SettingsUI
@testable import CursesTerminal

@Suite struct KeyDecoderTests {
    @Test func controlAndPrintableCharacters() {
        #expect(KeyDecoder.character(13) == .enter)
        #expect(KeyDecoder.character(10) == .enter)
        #expect(KeyDecoder.character(9) == .tab)
        #expect(KeyDecoder.character(27) == .escape)
        #expect(KeyDecoder.character(3) == .ctrl("c"))
        #expect(KeyDecoder.character(32) == .char(" "))
        #expect(KeyDecoder.character(UInt32(("é" as Unicode.Scalar).value)) == .char("é"))
        #expect(KeyDecoder.character(127) == .backspace)
    }

    @Test func functionKeys() {
        #expect(KeyDecoder.functionKey(KEY_UP) == .up)
        #expect(KeyDecoder.functionKey(KEY_DOWN) == .down)
        #expect(KeyDecoder.functionKey(KEY_LEFT) == .left)
        #expect(KeyDecoder.functionKey(KEY_RIGHT) == .right)
        #expect(KeyDecoder.functionKey(KEY_BTAB) == .backTab)
        #expect(KeyDecoder.functionKey(KEY_ENTER) == .enter)
        #expect(KeyDecoder.functionKey(KEY_F0 + 1) == .function(1))
    }
}

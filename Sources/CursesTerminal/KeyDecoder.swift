import CNcursesw
import SettingsUI

/// Turns what `wget_wch` returns into the page's keys.
public enum KeyDecoder {
    /// A character read as OK (not a function key).
    public static func character(_ value: UInt32) -> Key? {
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .ctrl(Character(Unicode.Scalar(value + 96)!))
        default:
            guard let scalar = Unicode.Scalar(value), value >= 32 else { return nil }
            return .char(Character(scalar))
        }
    }

    /// A function key read as KEY_CODE_YES.
    public static func functionKey(_ code: Int32) -> Key {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case KEY_BACKSPACE: return .backspace
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        default:
            if code >= KEY_F0 && code < KEY_F0 + 64 { return .function(Int(code - KEY_F0)) }
            return .unknown(Int(code))
        }
    }
}

import CNcursesw
import SettingsUI

/// How each role looks: colours when the terminal has them and NO_COLOR is not set, and
/// attributes that carry the meaning on their own (monochrome terminals lose nothing).
struct Palette {
    let colors: Bool

    /// Colour pairs, by number, on the terminal's own background. Only colours that read on a
    /// dark and a light background alike: switches that are on and warnings are bold in the
    /// terminal's own foreground, notices plain in it (yellow, green and cyan all but vanish on white).
    private static let pairs: [(Role, Int16)] = [
        (.error, Int16(COLOR_RED)), (.title, Int16(COLOR_BLUE)), (.rule, Int16(COLOR_BLUE)),
    ]

    init(useColor: Bool) {
        var colors = false
        if useColor && has_colors() {
            start_color()
            use_default_colors()
            for (index, entry) in Self.pairs.enumerated() {
                init_pair(Int16(index + 1), entry.1, -1)
            }
            colors = true
        }
        self.colors = colors
    }

    func attributes(for role: Role) -> attr_t {
        var attrs: attr_t
        switch role {
        case .normal, .dialog, .button, .off: attrs = notif_a_normal()
        case .title: attrs = notif_a_bold()
        case .rule, .dim, .disabled, .hint: attrs = notif_a_dim()
        case .focused, .focusedButton: attrs = notif_a_reverse() | notif_a_bold()
        case .on: attrs = notif_a_bold()
        case .warning, .error: attrs = notif_a_bold()
        case .notice: attrs = notif_a_normal()
        }
        if colors, let index = Self.pairs.firstIndex(where: { $0.0 == role }) {
            attrs |= notif_color_pair(Int16(index + 1))
        }
        return attrs
    }
}

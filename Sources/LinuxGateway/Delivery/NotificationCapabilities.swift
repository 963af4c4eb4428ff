/// What a notification service says it can do (`GetCapabilities`), asked with `gdbus`: a
/// service without "actions" shows no buttons, and some (notify-osd) turn a notification with
/// actions into a dialog, so buttons are only sent to a service that lists "actions".
public enum NotificationCapabilities {
    public static let command = [
        "gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
        "--object-path", "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.GetCapabilities",
    ]

    /// The strings of gdbus's answer, `(['actions', 'body', 'icon-static'],)`.
    public static func parse(_ text: String) -> Set<String> {
        var result = Set<String>()
        var current: String?
        var escaped = false
        for character in text {
            if var word = current {
                if escaped {
                    word.append(character)
                    escaped = false
                    current = word
                } else if character == "\\" {
                    escaped = true
                } else if character == "'" {
                    result.insert(word)
                    current = nil
                } else {
                    word.append(character)
                    current = word
                }
            } else if character == "'" {
                current = ""
            }
        }
        return result
    }
}

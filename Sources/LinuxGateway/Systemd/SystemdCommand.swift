import SharedLogic

/// Writes an argv as an `ExecStart=` value by systemd.service(5)'s command-line rules: `%`
/// specifiers doubled everywhere, `$` doubled in arguments (not in the program path, where
/// systemd takes it literally), and words with spaces or special characters double-quoted with
/// C-style escapes inside.
public enum SystemdCommand {
    public static func render(_ argv: [String]) throws(GatewayError) -> String {
        guard let program = argv.first else { throw GatewayError("cannot schedule an empty command with systemd") }
        guard program.hasPrefix("/") else {
            throw GatewayError("cannot schedule \(program.debugDescription) with systemd: the program needs an absolute path")
        }
        if program.unicodeScalars.contains(where: { $0 == "\"" || $0 == "'" || $0 == "\\" || isControl($0) }) {
            throw GatewayError("cannot schedule \(program.debugDescription) with systemd: systemd refuses programs whose path holds quotes, backslashes or control characters; install notif to a plain path (make install)")
        }
        return ([word(program, isProgram: true)] + argv.dropFirst().map { word($0, isProgram: false) }).joined(separator: " ")
    }

    /// `text` for a unit file value where specifiers are expanded (`Description=`, paths): `%` doubled.
    public static func escapeSpecifiers(_ text: String) -> String {
        text.replacing("%", with: "%%")
    }

    static func word(_ word: String, isProgram: Bool) -> String {
        if word == ";" { return "\\;" }
        var escaped = ""
        var needsQuotes = word.isEmpty
        for scalar in word.unicodeScalars {
            switch scalar {
            case "%": escaped += "%%"
            case "$" where !isProgram: escaped += "$$"
            case "\\": escaped += "\\\\"; needsQuotes = true
            case "\"": escaped += "\\\""; needsQuotes = true
            case "\n": escaped += "\\n"; needsQuotes = true
            case "\t": escaped += "\\t"; needsQuotes = true
            case "\r": escaped += "\\r"; needsQuotes = true
            default:
                if isControl(scalar) {
                    escaped += "\\x" + Hex.of(scalar.value, width: 2)
                    needsQuotes = true
                } else {
                    if !isPlain(scalar) { needsQuotes = true }
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return needsQuotes ? "\"" + escaped + "\"" : escaped
    }

    /// Characters that never need quoting in a systemd command line.
    static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "/._-+:,=@%$".unicodeScalars.contains(scalar)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7f }
}

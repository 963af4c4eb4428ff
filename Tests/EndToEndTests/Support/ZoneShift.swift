import Foundation

/// Reaching "09:00" now with real clocks (no libfaketime in the release binary's runs): a
/// POSIX TZ whose local time is the wanted one right now (`NTF-5:37` is UTC+05:37; the sign is
/// POSIX's, inverted).
enum ZoneShift {
    /// A TZ where it is `hour:minute` (and this minute's seconds) at `date`.
    static func whereItIs(_ hour: Int, _ minute: Int, at date: Date = Date()) -> String {
        let now = Int(date.timeIntervalSince1970)
        let minuteOfDay = (now / 60) % 1440
        var offset = ((hour * 60 + minute - minuteOfDay) % 1440 + 1440) % 1440
        if offset >= 720 { offset -= 1440 }
        return posix(offsetMinutes: offset)
    }

    /// A TZ where the next minute boundary at least `lead` seconds away is 09:00, and that moment.
    static func nineAtTheNextMinute(lead: Int = 20, from date: Date = Date()) -> (tz: String, at: Date) {
        let now = Int(date.timeIntervalSince1970)
        var boundary = (now / 60 + 1) * 60
        if boundary - now < lead { boundary += 60 }
        return (whereItIs(9, 0, at: Date(timeIntervalSince1970: TimeInterval(boundary))), Date(timeIntervalSince1970: TimeInterval(boundary)))
    }

    /// `NTF-H:MM` for a zone `minutes` east of UTC.
    static func posix(offsetMinutes minutes: Int) -> String {
        let magnitude = abs(minutes)
        return "NTF" + (minutes >= 0 ? "-" : "+") + "\(magnitude / 60):" + String(format: "%02d", magnitude % 60)
    }
}

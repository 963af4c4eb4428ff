import Testing
@testable import LinuxGateway

/// What reaches the notification service (`Notify`'s summary and body): no markup from a
/// server acts, no control or bidi character passes, and notif's own reminder is sent exactly as before.
@Suite struct DesktopNotifierTextTests {
    func sent(summary: String, body: String) -> (summary: String, body: String) {
        (DesktopNotifier.safeSummary(summary), DesktopNotifier.safeBody(body))
    }

    @Test func bodyMarkupIsEscaped() {
        let body = sent(summary: "x", body: #"<img src="file:///etc/passwd"> <a href="http://evil/">go</a> & &amp;"#).body
        #expect(body == #"&lt;img src="file:///etc/passwd"&gt; &lt;a href="http://evil/"&gt;go&lt;/a&gt; &amp; &amp;amp;"#)
    }

    @Test func summaryTagsAreNeutralisedAndNotifsOwnSummaryIsKept() {
        #expect(sent(summary: "<b>Sale</b> & more", body: "").summary == "\u{2039}b\u{203A}Sale\u{2039}/b\u{203A} & more")
        #expect(sent(summary: "Tips & Updates", body: "Your daily tip: see what is new and get more out of the app.")
                == ("Tips & Updates", "Your daily tip: see what is new and get more out of the app."))
    }

    @Test func controlAndBidiCharactersAreRemovedFromBoth() {
        let hostile = "a\u{1B}]0;t\u{07}b\u{0}c\u{7F}d\u{9B}e\u{202E}f\u{2066}g\u{200F}h\u{061C}i\rj\tk"
        let (summary, body) = sent(summary: hostile + "\nl", body: hostile + "\nl")
        #expect(summary == "a]0;tbcdefghi j k l")
        #expect(body == "a]0;tbcdefghijk\nl", "a line break stays in the body")
    }

    @Test(arguments: ["", " ", "\t\n", "\u{1B}\u{202E}"])
    func aBlankSummaryFallsBack(summary: String) {
        #expect(sent(summary: summary, body: "b").summary == "notif")
    }
}

import Testing
import TestSupport
@testable import SharedLogic

@Suite struct PreferencesCodecTests {
    @Test func defaultsMatchTheTemplate() {
        let p = NotificationPreferences()
        #expect(p[.pushNotifications] && !p[.tipsAndUpdates] && p[.queueAlerts] && !p[.promotions] && p[.vibration])
        #expect(p.sound == .default && p.permission == .notDetermined && p.mode == .guest && !p.onboardingCompleted)
    }

    @Test func documentedExampleDecodes() throws {
        let text = """
        { "version": 1, "mode": "account",
          "pushNotifications": false, "tipsAndUpdates": true, "queueAlerts": false,
          "promotions": true, "sound": "chime", "vibration": false,
          "permission": "denied", "onboardingCompleted": true,
          "account": { "server": "https://example.org" } }
        """
        let p = try PreferencesCodec.decode(Array(text.utf8))
        #expect(p.mode == .account && !p[.pushNotifications] && p[.tipsAndUpdates] && !p[.queueAlerts])
        #expect(p[.promotions] && p.sound == .chime && !p[.vibration] && p.permission == .denied)
        #expect(p.onboardingCompleted && p.accountServer == "https://example.org")
    }

    @Test func missingKeysTakeDefaultsAndVersionlessFilesMigrate() throws {
        let p = try PreferencesCodec.decode(Array(#"{"tipsAndUpdates": true}"#.utf8))
        var expected = NotificationPreferences()
        expected[.tipsAndUpdates] = true
        #expect(p == expected)
        #expect(try PreferencesMigration.version(of: try JSONParser.parse("{}")) == 0)
        #expect(try PreferencesMigration.migrate(try JSONParser.parse("{}"))["version"] == .int(1))
    }

    @Test(arguments: [
        (#"[]"#, "top level is an array"),
        (#""x""#, "top level is a string"),
        (#"{"tipsAndUpdates": "yes"}"#, #""tipsAndUpdates" is "yes" — use true or false"#),
        (#"{"pushNotifications": 1}"#, #""pushNotifications" is 1 — use true or false"#),
        (#"{"sound": "trumpet"}"#, #""sound" is "trumpet" — use default, chime, bell or silent"#),
        (#"{"permission": true}"#, #""permission" is true — use "notDetermined", "granted" or "denied""#),
        (#"{"mode": "admin"}"#, #""mode" is "admin" — use guest or account"#),
        (#"{"version": "1"}"#, #""version" is "1" — use a whole number (1)"#),
        (#"{"version": 1.5}"#, #""version" is 1.5"#),
        (#"{"version": -1}"#, #""version" is -1"#),
        (#"{"account": "x"}"#, #""account" is "x" — use an object"#),
        (#"{"scheduler": "anacron"}"#, #""scheduler" is "anacron" — use auto, systemd, cron or embedded"#),
        (#"{"scheduler": 2}"#, #""scheduler" is 2"#),
        (#"{"scheduler": null}"#, #""scheduler" is null"#),
        (#"{"account": {"server": 3}}"#, #""account.server" is 3 — use the server's address in double quotes"#),
        (#"{"promotions": [true]}"#, #""promotions" is an array — use true or false"#),
        (#"{"version": 2}"#, "version 2, newer than"),
    ])
    func wrongTypesAreNamed(text: String, message: String) {
        #expect {
            try PreferencesCodec.decode(Array(text.utf8))
        } throws: { error in
            (error as? PreferencesDecodingError)?.description.contains(message) == true
        }
    }

    /// A wrong value is placed by line and column, where the value starts.
    @Test(arguments: [
        ("{\n  \"sound\": \"trumpet\"\n}", "line 2, column 12: \"sound\" is \"trumpet\""),
        ("{\"account\": {\"server\": 443}}", "line 1, column 24: \"account.server\" is 443"),
        ("  [1]", "line 1, column 3: the top level is an array"),
        ("{\"a\": {\"sound\": 1}, \"sound\": \"x\"}", "line 1, column 30: \"sound\" is \"x\""),
    ])
    func wrongValuesSayWhere(text: String, message: String) {
        let bytes = Array(text.utf8)
        #expect {
            try PreferencesCodec.decode(bytes)
        } throws: { error in
            (error as? PreferencesDecodingError)?.located(in: bytes).hasPrefix(message) == true
        }
    }

    /// What a settings file's mistake is called keeps its parentheses flat and closed: the fix
    /// follows a dash, never a second pair, and a bracket the file holds is named, not shown.
    @Test func settingsMistakesKeepParenthesesFlatAndClosed() {
        let texts = ["", "{", "[1, 2", "{\"a\": [1, {", "{\"a\": )}", "{\"a\": (}", "(", ")", "{\"a\": 1,}", "[1,]",
                     "{\"a\": 1 \"b\": 2}", "{\"a\" 1}", "{a: 1}", "{'a': 1}", "\"ab", "\"a\nb\"", "\"\\x\"", "\"\\ud83d\"",
                     "01", "1.", "1e", "-", "tru", "{} {}", "// c\n{}", "\u{0}", "[]", "\"x\"",
                     #"{"version": "1"}"#, #"{"version": 2}"#, #"{"sound": "loud"}"#, #"{"sound": 1}"#, #"{"mode": []}"#,
                     #"{"permission": true}"#, #"{"scheduler": null}"#, #"{"account": "x"}"#, #"{"account": {"server": 3}}"#,
                     String(repeating: "[", count: JSONParser.maximumDepth + 1)]
        var messages: [String] = []
        for text in texts {
            let bytes = Array(text.utf8)
            do {
                _ = try PreferencesCodec.decode(bytes)
                Issue.record("\(text) decoded")
            } catch {
                messages.append(error.located(in: bytes))
            }
        }
        #expect(messages.count == texts.count)
        for message in messages {
            #expect(Parentheses.problem(in: message) == nil, "\(message)")
        }
    }

    @Test func futureVersionIsItsOwnError() {
        #expect(throws: PreferencesDecodingError.newerVersion(7)) {
            try PreferencesCodec.decode(Array(#"{"version": 7, "whatever": []}"#.utf8))
        }
    }

    @Test func encodingKeepsUnknownKeysAndTheirOrder() throws {
        let original = try JSONParser.parse(#"{"zeta": [1, {"deep": "x"}], "tipsAndUpdates": false, "custom": 12.50, "account": {"server": "https://a", "extra": 1}}"#)
        var p = try PreferencesCodec.decode(original)
        p[.tipsAndUpdates] = true
        p.sound = .bell
        let doc = PreferencesCodec.encode(p, over: original)
        let keys = doc.objectMembers!.map(\.key)
        #expect(Array(keys.prefix(4)) == ["zeta", "tipsAndUpdates", "custom", "account"])
        #expect(doc["zeta"] == original["zeta"])
        #expect(doc["custom"] == .number("12.50"))
        #expect(doc["account"]?["extra"] == .int(1))
        #expect(doc["account"]?["server"] == .string("https://a"))
        #expect(try PreferencesCodec.decode(doc) == p)
        #expect(JSONWriter.pretty(doc).contains("\"custom\": 12.50"))
    }

    @Test func freshDocumentHasEveryDocumentedKeyInOrder() {
        let doc = PreferencesCodec.encode(NotificationPreferences())
        #expect(doc.objectMembers!.map(\.key) == [
            "version", "mode", "pushNotifications", "tipsAndUpdates", "queueAlerts", "promotions",
            "sound", "vibration", "permission", "onboardingCompleted", "scheduler",
        ])
    }

    @Test func everySettingRoundTripsThroughJSON() throws {
        for setting in Setting.all {
            for value in setting.values {
                let p = try #require(setting.applying(value, to: NotificationPreferences()))
                let back = try PreferencesCodec.decode(Array(JSONWriter.pretty(PreferencesCodec.encode(p)).utf8))
                #expect(setting.value(in: back) == value)
            }
            #expect(setting.applying("nonsense", to: NotificationPreferences()) == nil)
        }
    }

    @Test func theSchedulerChoiceIsSavedAndDefaultsToAuto() throws {
        #expect(NotificationPreferences().scheduler == .auto)
        #expect(try PreferencesCodec.decode(Array("{}".utf8)).scheduler == .auto)
        for choice in SchedulerPreference.allCases {
            let p = try PreferencesCodec.decode(Array(#"{"scheduler": "\#(choice.rawValue)", "mine": [1]}"#.utf8))
            #expect(p.scheduler == choice)
            let doc = PreferencesCodec.encode(p, over: try JSONParser.parse(#"{"scheduler": "auto", "mine": [1]}"#))
            #expect(doc["scheduler"] == .string(choice.rawValue) && doc["mine"] == .array([.int(1)]))
            #expect(doc.objectMembers!.first?.key == "scheduler", "rewritten in place")
        }
        #expect(Setting(name: "scheduler") == .scheduler)
        #expect(Setting.scheduler.values == ["auto", "systemd", "cron", "embedded"])
        #expect(Setting.scheduler.applying("cron", to: NotificationPreferences())?.scheduler == .cron)
        #expect(Setting.scheduler.applying("anacron", to: NotificationPreferences()) == nil)
    }

    /// A key a typing slip from one notif reads is named with the key meant; keys of other
    /// tools, and the keys notif reads, are not.
    @Test func aMistypedKeyIsNamedWithTheKeyMeant() throws {
        let document = try JSONParser.parse(#"{"tipsAndUpdate": true, "sond": "bell", "Promotions": true, "myToolsKey": 1, "vibration": false, "version": 1}"#)
        let said = PreferencesCodec.mistypedKeys(in: document)
        #expect(said.count == 3, "\(said)")
        #expect(said.first == "settings.json has the key \"tipsAndUpdate\", which notif does not read (it is kept as written); did you mean tipsAndUpdates?")
        #expect(said.dropFirst().first?.hasSuffix("did you mean sound?") == true && said.last?.hasSuffix("did you mean promotions?") == true, "\(said)")
        #expect(PreferencesCodec.mistypedKeys(in: PreferencesCodec.encode(NotificationPreferences())).isEmpty, "notif's own file")
        #expect(PreferencesCodec.mistypedKeys(in: nil).isEmpty)
    }

    /// A slip that took the place of the key it meant (no `tipsAndUpdates` in the file) makes the
    /// file unusable, located at the slip; beside the real key it is only named.
    @Test func aMistypedKeyInPlaceOfTheRealOneIsAnError() throws {
        let bytes = Array("{\n  \"tipsAndUpdate\": true\n}\n".utf8)
        #expect(throws: PreferencesDecodingError.mistypedKey(key: "tipsAndUpdate", meant: ["tipsAndUpdates"])) { try PreferencesCodec.decode(bytes) }
        let error = PreferencesDecodingError.mistypedKey(key: "tipsAndUpdate", meant: ["tipsAndUpdates"])
        #expect(error.located(in: bytes) == #"line 2, column 20: "tipsAndUpdate" is not a key notif reads — did you mean "tipsAndUpdates"? rename it, or that setting would take the default"#)
        let beside = try PreferencesCodec.decode(Array(#"{"tipsAndUpdates": true, "tipsAndUpdate": false}"#.utf8))
        #expect(beside[.tipsAndUpdates])
        #expect(throws: Never.self) { try PreferencesCodec.decode(Array(#"{"myToolsKey": 1}"#.utf8)) }
    }

    @Test func soundCyclesBothWays() {
        #expect(NotificationSound.default.cycled(by: 1) == .chime)
        #expect(NotificationSound.silent.cycled(by: 1) == .default)
        #expect(NotificationSound.default.cycled(by: -1) == .silent)
    }
}

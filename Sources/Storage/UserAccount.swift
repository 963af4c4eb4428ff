import Glibc

/// A user's entry in the account database, as NSS gives it (`/etc/passwd`, LDAP, SSSD,
/// systemd-homed, extrausers: whatever nsswitch.conf names).
public struct UserAccount: Equatable, Sendable {
    public let uid: UInt32
    public let name: String
    public let home: String

    /// The entry of `uid`, or nil when no database knows it (or the lookup failed).
    public static func of(uid: UInt32) -> UserAccount? {
        var size = max(Int(sysconf(Int32(_SC_GETPW_R_SIZE_MAX))), 1024)
        while size <= 1 << 20 {
            var entry = passwd()
            var found: UnsafeMutablePointer<passwd>?
            var buffer = [CChar](repeating: 0, count: size)
            let code = getpwuid_r(uid, &entry, &buffer, size, &found)
            if code == ERANGE {
                size *= 4
                continue
            }
            guard code == 0, found != nil, let name = entry.pw_name, let home = entry.pw_dir else { return nil }
            return UserAccount(uid: uid, name: String(cString: name), home: String(cString: home))
        }
        return nil
    }
}

extension Posix {
    /// The login name of `uid`, or the number when no account database knows it.
    public static func userName(_ uid: UInt32) -> String {
        UserAccount.of(uid: uid)?.name ?? String(uid)
    }

    /// The current user's id, login name and home directory from the account database; a
    /// user it does not know falls back to USER/LOGNAME and no home.
    public static func currentUser() -> (uid: UInt32, name: String, home: String?) {
        let uid = getuid()
        if let account = UserAccount.of(uid: uid) { return (uid, account.name, account.home.isEmpty ? nil : account.home) }
        return (uid, environment("USER") ?? environment("LOGNAME") ?? String(uid), nil)
    }
}

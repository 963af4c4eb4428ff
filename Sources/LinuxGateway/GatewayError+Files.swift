import SharedLogic
import Storage

extension GatewayError {
    /// What `body` returns; a file error it throws becomes a gateway error in the same words.
    static func files<T>(_ body: () throws(FileError) -> T) throws(GatewayError) -> T {
        do {
            return try body()
        } catch {
            throw GatewayError(error.description)
        }
    }
}

import Testing
@testable import Storage

@Test func moduleLoads() { #expect(Bool(true)) }

import Testing
@testable import SharedLogic

@Test func moduleLoads() { #expect(Bool(true)) }

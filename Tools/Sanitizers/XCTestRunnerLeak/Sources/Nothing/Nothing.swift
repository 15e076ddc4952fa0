/// The library under test: nothing, so that every leak reported comes from the test runner.
public let nothing = 0

import ArgumentParser

/// An option's value that is one of an enum's cases, written as its raw value (`--logs grouped`).
///
/// Lists the values for help and completion itself, the same strings as the argument parser's
/// generic default: that default makes the Swift runtime look up the enum's conformance to
/// `RawRepresentable` by reading every one of the executable's ~6,600 conformance records
/// (about 260,000 instructions for each such enum in every `run`'s argument parsing).
protocol ArgumentChoice: ExpressibleByArgument, CaseIterable, RawRepresentable<String> {}

extension ArgumentChoice {
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

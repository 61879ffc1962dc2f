/// libFuzzer's driver, linked in by `-sanitize=fuzzer`.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Hands the process to libFuzzer with `testOneInput` as the target. SwiftPM links each fuzz
/// executable with `main` aliased to `<module>_main`, which calls this.
public func runFuzzer(
    argc: CInt, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, testOneInput)
}

import Foundation
import FuzzTargets

/// The target `TAPEDECK_FUZZ_TARGET` names, chosen once when libFuzzer starts.
let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["TAPEDECK_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget.named(name) else {
        let problem = name.isEmpty ? "TAPEDECK_FUZZ_TARGET is not set" : "there is no fuzz target \"\(name)\""
        FileHandle.standardError.write(Data("tapedeck-fuzz: \(problem); the targets are:\n\(FuzzTarget.usage)\n".utf8))
        exit(2)
    }
    return target
}()

/// libFuzzer's start-up hook: resolves the target before the first input, so a bad name fails at once.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    _ = selectedTarget
    return 0
}

/// libFuzzer's entry point: one input for the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    selectedTarget.run(data)
    return 0
}

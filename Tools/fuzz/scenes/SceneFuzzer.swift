// libFuzzer entry over whole scenes: decode, record and render on the CPU
// under tight limits (SceneFuzzing.run in PenumbraCPU). Built by
// Tools/fuzz/scenes/run.sh with -sanitize=fuzzer,address; not part of the package.
@_spi(Fuzzing) import PenumbraCPU

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    SceneFuzzing.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

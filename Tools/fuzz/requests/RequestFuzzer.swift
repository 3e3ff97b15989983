// libFuzzer entry over the render server's request parsing: JSON bodies and
// multipart forms into a scene (RequestFuzzing.run in PenumbraRequests). Built
// by Tools/fuzz/requests/run.sh with -sanitize=fuzzer,address; not part of the package.
@_spi(Fuzzing) import PenumbraRequests

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    RequestFuzzing.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

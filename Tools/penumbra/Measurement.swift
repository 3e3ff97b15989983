// Measuring: wall-clock samples, their summary, the machine's bandwidth floor
// (a 4 MiB memory copy, timed in the same run as what it is compared with)
// and the process's peak resident memory.
import Foundation

/// Median, minimum and maximum of a set of samples, in milliseconds.
struct Summary: Encodable {
    var median: Double
    var min: Double
    var max: Double

    init(_ samples: [Double]) {
        let s = samples.sorted()
        precondition(!s.isEmpty)
        median = s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        min = s.first!; max = s.last!
    }
}

enum Measurement {
    /// Monotonic time in milliseconds.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

    /// Times `body` once, in milliseconds.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }

    /// The median time of copying 4 MiB from one buffer to another (memcpy), in milliseconds:
    /// the bandwidth floor of the machine that ran the measurement.
    static func memoryCopyFloor(repetitions: Int = 50) -> Double {
        let count = 4 << 20
        let source = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        let target = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        defer { source.deallocate(); target.deallocate() }
        memset(source, 0x5A, count); memset(target, 0, count)
        var samples: [Double] = []
        for _ in 0..<repetitions { samples.append(time { memcpy(target, source, count) }) }
        return Summary(samples).median
    }

    /// Peak resident set size of this process so far, in MiB.
    static func peakResidentMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024 // kilobytes on Linux
    }
}

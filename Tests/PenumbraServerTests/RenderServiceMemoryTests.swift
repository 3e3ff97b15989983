// A long-running pool must give back what each job took: the soak of BENCHMARKS.md found the
// heap growing by about 0.7 KB a request for as long as the deadline (30 s), because each job's
// deadline timer stayed allocated until its deadline even when the job had long finished. This
// counts the heap's bytes in use (glibc's mallinfo2) across thousands of finished jobs with a
// deadline a minute away: with the timers kept, it grows by megabytes.
import Foundation
import Penumbra
import PenumbraServer
import XCTest

final class RenderServiceMemoryTests: XCTestCase {
    private static func heapInUse() -> Int { HeapStatistics.inUse }

    private static func runJobs(_ service: RenderService, _ count: Int) async throws {
        let scene = Array(##"{"format":"penumbra-scene","version":1,"size":[8,8],"background":"#2050C0","ops":[]}"##.utf8)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<4 {
                group.addTask {
                    for _ in stride(from: lane, to: count, by: 4) {
                        let job = RenderService.Job(deadline: .now + .seconds(60),
                                                    prepare: { try Scene.decode(scene, baseDirectory: "/nonexistent").displayList() },
                                                    encode: { [UInt8(truncatingIfNeeded: $0.width)] })
                        let output = try await service.render(job)
                        XCTAssertEqual(output.bytes, [8])
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    func testFinishedJobsHoldNoMemoryUntilTheirDeadline() async throws {
        let service = try RenderService(.init(backend: .cpu, workers: 2, queueLimit: 16))
        defer { service.shutdown() }
        try await Self.runJobs(service, 500)  // warm-up: caches and allocator arenas settle
        let before = Self.heapInUse()
        try await Self.runJobs(service, 4000)
        let grown = Self.heapInUse() - before
        XCTAssertLessThan(grown, 1 << 20, "4,000 finished jobs kept \(grown) bytes of heap (a deadline timer per job?)")
    }
}

import XCTest
@testable import PenumbraCPU

final class RowBandsTests: XCTestCase {
    /// Every row is visited exactly once, in contiguous bands, whatever the size and thread count.
    func testBandsCoverEveryRowOnce() {
        for threads in [1, 2, 3, 8] {
            for rows in [0..<0, 0..<1, 5..<9, -20..<1000, 0..<4096] {
                for pixels in [0, RowBands.parallelThreshold - 1, RowBands.parallelThreshold * 64] {
                    let lock = NSLock()
                    var seen: [Range<Int>] = []
                    RowBands.run(rows: rows, pixels: pixels, threads: threads) { band in
                        lock.lock(); seen.append(band); lock.unlock()
                    }
                    seen.sort { $0.lowerBound < $1.lowerBound }
                    let visited = seen.flatMap { Array($0) }
                    XCTAssertEqual(visited, Array(rows), "\(rows) on \(threads) threads, \(pixels) px")
                    XCTAssertLessThanOrEqual(seen.count, max(1, threads))
                    if pixels < RowBands.parallelThreshold * 2 { XCTAssertEqual(seen.count, 1, "small jobs stay on one thread") }
                }
            }
        }
    }
}

// CoverageTilesTests: the tiles cover every pixel of non-zero coverage (and,
// grown by a radius, every pixel a blur tap can carry it to), and shading
// only the tiles gives the same bytes as shading whole regions, on random
// scenes and every example.
import XCTest
import Penumbra
import PenumbraTestSupport
@testable import PenumbraGPU

final class CoverageTilesTests: XCTestCase {
    func randomMask(_ random: inout SplitMix64, _ region: PixelRect) -> CoverageMask {
        var values = [UInt8](repeating: 0, count: region.area)
        for _ in 0..<Int(random.next() % 6) {
            let i = Int(random.next() % UInt64(region.area))
            values[i] = UInt8(random.next() % 255 + 1)
        }
        return CoverageMask(region: region, values: values)
    }

    func testTilesCoverEveryNonZeroPixelAndGrowingCoversEveryTap() throws {
        var random = SplitMix64(state: 77)
        for _ in 0..<300 {
            let region = PixelRect(x: Int(random.next() % 50) - 25, y: Int(random.next() % 50) - 25,
                                   width: Int(random.next() % 70) + 1, height: Int(random.next() % 70) + 1)
            let mask = randomMask(&random, region)
            let tiles = CoverageTiles(mask)
            let radius = Int(random.next() % 40)
            let limit = region.grown(by: radius)
            let covered = tiles.rects(within: region), grown = tiles.dilated(dx: radius, dy: radius).rects(within: limit)
            func inside(_ rects: [PixelRect], _ x: Int, _ y: Int) -> Bool {
                rects.contains { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }
            }
            for y in region.y..<region.maxY {
                for x in region.x..<region.maxX where mask[x, y] != 0 {
                    XCTAssertTrue(inside(covered, x, y), "pixel \(x), \(y) of non-zero coverage is in no tile")
                    for (dx, dy) in [(radius, radius), (-radius, -radius), (radius, -radius), (0, -radius), (-radius, 0)] {
                        XCTAssertTrue(inside(grown, x + dx, y + dy), "tap at \(dx), \(dy) from \(x), \(y) is in no grown tile")
                    }
                }
            }
            // Runs in a tile row never overlap.
            for (i, a) in covered.enumerated() {
                for b in covered[(i + 1)...] { XCTAssertTrue(a.intersection(b).isEmpty, "\(a) overlaps \(b)") }
            }
        }
    }

    func testShadingOnlyTheTilesGivesTheSameBytes() throws {
        let sparse = try GPUTestSupport.renderer()
        let dense: GPURenderer
        do { dense = try GPURenderer() } catch { return XCTFail("no second GPU context: \(error)") }
        sparse.sparseLimit = 2
        dense.sparseLimit = 0
        defer { sparse.sparseLimit = 0.85 }
        var lists: [(String, DisplayList)] = try GPUTestSupport.exampleScenes().map {
            ($0.lastPathComponent, try GPUTestSupport.loadScene($0).displayList())
        }
        for i in 0..<120 {
            var builder = FuzzSceneBuilder(seed: 0x711E_0000 &+ UInt64(i))
            lists.append(("fuzz \(i)", builder.build()))
        }
        for (name, list) in lists {
            XCTAssertEqual(try sparse.render(list).pixels, try dense.render(list).pixels, "\(name): tiles changed pixels")
        }
    }
}

// The comparison rule, the difference picture and the PNG round trip, on
// bitmaps made by hand so that every expected number can be counted.

import Testing
import Penumbra
@testable import PenumbraSnapshotTesting

/// A `width` × `height` bitmap of one premultiplied colour.
func solid(_ width: Int, _ height: Int, _ rgba: SIMD4<UInt8>) -> Bitmap {
    var bitmap = Bitmap(width: width, height: height)
    for y in 0..<height { for x in 0..<width { bitmap[x, y] = rgba } }
    return bitmap
}

@Suite struct ImageComparisonTests {
    let grey = SIMD4<UInt8>(100, 100, 100, 255)

    @Test func identicalImagesMatch() {
        let a = solid(4, 3, grey)
        let c = ImageComparison(reference: a, actual: a, precision: 1, perPixelTolerance: 0)
        #expect(c.matches)
        #expect(c.differingPixels == 0 && c.largestDifference == 0 && c.largestDifferenceAt == nil)
        #expect(c.pixelCount == 12)
    }

    @Test func aDifferenceWithinTheToleranceMatches() {
        let a = solid(4, 4, grey)
        var b = a
        b[2, 1] = SIMD4(102, 99, 100, 255)
        let within = ImageComparison(reference: a, actual: b, precision: 1, perPixelTolerance: 2)
        #expect(within.matches)
        #expect(within.differingPixels == 0)
        #expect(within.largestDifference == 2)
        #expect(within.largestDifferenceAt?.x == 2 && within.largestDifferenceAt?.y == 1)
    }

    @Test func aDifferenceOverTheToleranceFails() {
        let a = solid(4, 4, grey)
        var b = a
        b[3, 2] = SIMD4(100, 100, 100, 251) // alpha counts like any channel
        let over = ImageComparison(reference: a, actual: b, precision: 1, perPixelTolerance: 3)
        #expect(!over.matches)
        #expect(over.differingPixels == 1)
        #expect(over.largestDifference == 4)
        #expect(over.largestDifferenceAt?.x == 3 && over.largestDifferenceAt?.y == 2)
        let message = over.failureMessage(precision: 1, perPixelTolerance: 3)
        #expect(message.contains("1 of 16 pixels differ"))
        #expect(message.contains("largest difference is 4 of 255, first at x 3, y 2"))
    }

    @Test func precisionAllowsAFractionOfThePixelsToDiffer() {
        let a = solid(10, 10, grey)
        var one = a, two = a
        one[0, 0] = SIMD4(0, 0, 0, 255)
        two[0, 0] = SIMD4(0, 0, 0, 255); two[9, 9] = SIMD4(0, 0, 0, 255)
        // 0.99 of 100 pixels: one may differ (1 - 0.99 is 0.010000000000000009 in binary).
        #expect(ImageComparison(reference: a, actual: one, precision: 0.99, perPixelTolerance: 0).matches)
        #expect(!ImageComparison(reference: a, actual: two, precision: 0.99, perPixelTolerance: 0).matches)
        #expect(ImageComparison(reference: a, actual: two, precision: 0.98, perPixelTolerance: 0).matches)
        #expect(!ImageComparison(reference: a, actual: one, precision: 1, perPixelTolerance: 0).matches)
        // 0.9 of 10: 1 - 0.9 is 0.09999999999999998, still one pixel.
        #expect(ImageComparison.allowedDifferingPixels(pixelCount: 10, precision: 0.9) == 1)
        #expect(ImageComparison.allowedDifferingPixels(pixelCount: 10, precision: 0.7) == 3)
        #expect(ImageComparison.allowedDifferingPixels(pixelCount: 7, precision: 0) == 7)
        #expect(ImageComparison.allowedDifferingPixels(pixelCount: 7, precision: 1) == 0)
    }

    @Test func differentSizesNeverMatch() {
        let a = solid(4, 4, grey), b = solid(4, 5, grey)
        let c = ImageComparison(reference: a, actual: b, precision: 0, perPixelTolerance: 255)
        #expect(!c.matches && !c.sizesMatch)
        #expect(c.failureMessage(precision: 0, perPixelTolerance: 255)
            == "The sizes differ: the reference is 4 × 4 px, the snapshot 4 × 5 px.")
    }

    @Test func theDifferenceImageShowsWhereAndHowMuch() {
        let a = solid(3, 2, grey)
        var b = a
        b[1, 0] = SIMD4(101, 100, 100, 255)  // red differs by 1
        b[2, 1] = SIMD4(100, 100, 100, 155)  // only alpha differs (by 100; colours as premultiplied bytes)
        let diff = ImageDifference.amplifiedDifference(a, b)
        #expect(diff.width == 3 && diff.height == 2)
        #expect(diff[0, 0] == SIMD4(0, 0, 0, 255))
        #expect(diff[1, 0] == SIMD4(64, 0, 0, 255))
        let grey100 = ImageDifference.amplified(100)
        #expect(diff[2, 1] == SIMD4(grey100, grey100, grey100, 255))
        #expect(ImageDifference.amplified(255) == 255 && ImageDifference.amplified(0) == 0)
    }

    @Test func theDifferenceImageOfDifferentSizesIsMagentaOutsideTheOverlap() {
        let diff = ImageDifference.amplifiedDifference(solid(2, 2, grey), solid(3, 1, grey))
        #expect(diff.width == 3 && diff.height == 2)
        #expect(diff[0, 0] == SIMD4(0, 0, 0, 255))
        #expect(diff[2, 0] == SIMD4(255, 0, 255, 255))
        #expect(diff[0, 1] == SIMD4(255, 0, 255, 255))
    }

    @Test func premultipliedPixelsRoundTripThroughThePNGFile() {
        var b = Bitmap(width: 256, height: 1)
        for x in 0..<256 { let a = UInt8(x); b[x, 0] = SIMD4(a / 3, a / 2, a, a) }
        let back = ImageFile.bitmap(fromPNG: ImageFile.png(b))
        #expect(back == b)
        #expect(ImageFile.bitmap(fromPNG: Array("not a png".utf8)) == Bitmap(width: 0, height: 0))
    }
}

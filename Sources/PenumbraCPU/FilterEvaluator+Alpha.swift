// The CPU's filter graph over one channel (Core's FilterAlpha.swift): a
// shadow's caster plane, blurred in place by the interleaved blur with one
// channel, so the bytes are the RGBA blur's on each channel.
import PenumbraModel
import PenumbraCore

/// One channel of U8 values over a rectangle of graph pixels, zero outside it.
package struct AlphaImage: Sendable {
    /// The graph pixels the values cover.
    package var rect: PixelRect
    /// `rect.area` values, rows top to bottom, no padding.
    package var values: [UInt8]

    package init(rect: PixelRect, values: [UInt8]) {
        precondition(values.count == rect.area, "value count does not match the rectangle")
        self.rect = rect; self.values = values
    }

    /// The image over `region` when it does not already cover it: zeros where it had no values.
    func covering(_ region: PixelRect) -> AlphaImage {
        if rect.intersection(region) == region { return self }
        let out = PixelRect(x: min(rect.x, region.x), y: min(rect.y, region.y),
                            width: max(rect.maxX, region.maxX) - min(rect.x, region.x),
                            height: max(rect.maxY, region.maxY) - min(rect.y, region.y))
        var values = [UInt8](repeating: 0, count: out.area)
        for y in rect.y..<rect.maxY {
            let s = (y - rect.y) * rect.width, d = (y - out.y) * out.width + rect.x - out.x
            values[d..<(d + rect.width)] = self.values[s..<(s + rect.width)]
        }
        return AlphaImage(rect: out, values: values)
    }
}

extension GaussianKernel {
    /// Blurs a U8 plane in place (values outside it 0): only the bounding box of its non-zero
    /// values grown by the radius is blurred, since outside it input and output are 0. The
    /// bytes are the interleaved blur's with one channel, whatever `threads` is.
    package func blurPlane(_ plane: UnsafeMutablePointer<UInt8>, width: Int, height: Int, threads: Int? = nil) {
        guard radius > 0, width > 0, height > 0,
              let box = Self.contentBounds(plane, width: width, height: height) else { return }
        let x0 = max(0, box.x - radius), x1 = min(width - 1, box.x + box.width - 1 + radius)
        let y0 = max(0, box.y - radius), y1 = min(height - 1, box.y + box.height - 1 + radius)
        blurInterleaved(plane + y0 * width + x0, rowStride: width, width: x1 - x0 + 1, height: y1 - y0 + 1,
                        channels: 1, threads: threads)
    }

    /// The smallest rectangle holding every non-zero value, nil when there is none.
    private static func contentBounds(_ plane: UnsafePointer<UInt8>, width: Int, height: Int) -> PixelRect? {
        var rowMin = height, rowMax = -1, columnMin = width, columnMax = -1
        for y in 0..<height {
            let row = plane + y * width
            var first = 0
            while first + 16 <= width && UnsafeRawPointer(row + first).loadUnaligned(as: SIMD16<UInt8>.self) == .zero { first += 16 }
            while first < width && row[first] == 0 { first += 1 }
            guard first < width else { continue }
            var last = width - 1
            while last - 15 > first && UnsafeRawPointer(row + (last - 15)).loadUnaligned(as: SIMD16<UInt8>.self) == .zero {
                last -= 16
            }
            while row[last] == 0 { last -= 1 }
            if rowMax < 0 { rowMin = y }
            rowMax = y
            columnMin = min(columnMin, first); columnMax = max(columnMax, last)
        }
        guard rowMax >= 0 else { return nil }
        return PixelRect(x: columnMin, y: rowMin, width: columnMax - columnMin + 1, height: rowMax - rowMin + 1)
    }
}

extension FilterEvaluator {
    /// The single-channel pixels of `plan`'s result, `input` holding its stand-in's values (and
    /// covering every region the plan reads of it): an image covering at least the result's
    /// region within its extent, zero elsewhere. Each blur runs in place on its input's plane, so
    /// the result may cover more than the region; every value it holds is the result's. Only
    /// blurs of the input have a single-channel form: any other pass is an internal error.
    package func executeAlpha(_ plan: FilterPlan, input: AlphaImage) throws -> AlphaImage {
        var pending: AlphaImage? = input
        var current: AlphaImage?
        for (index, pass) in plan.passes.enumerated() {
            switch pass.operation {
            case .input:
                guard let pixels = pending.take() else { throw FilterError("internal: a single-channel plan reads its input twice") }
                current = pixels
            case .blur(let source, let kernel, let read) where source == index - 1:
                guard var plane = current.take()?.covering(read) else { throw FilterError("internal: a blur without its input") }
                let (width, height) = (plane.rect.width, plane.rect.height)
                plane.values.withUnsafeMutableBufferPointer { services.blurAlpha($0.baseAddress!, width, height, kernel) }
                current = plane
            default:
                throw FilterError("internal: \(pass.operation) has no single-channel form")
            }
        }
        guard let current else { throw FilterError("internal: a single-channel plan left no result") }
        return current
    }
}

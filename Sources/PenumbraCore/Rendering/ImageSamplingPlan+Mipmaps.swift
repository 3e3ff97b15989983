// ImageSamplingPlan+Mipmaps: the mip level of each region of a `high` /
// `default` draw, chosen once in Core (docs/ARITHMETIC.md, "Mipmaps").
//
// A plain image is one region; a nine-slice image has nine (a horizontal
// region times a vertical one), each an image of its own: its texel span is
// its level 0, it has its own chain (MipCache) and its own level, from the
// determinant of its device-to-image Jacobian (the Double steps of its two
// axis maps; MipLevels.level). The levels above 0 that the draw samples are
// laid side by side in one atlas (a shelf, left to right, in region order,
// each distinct region level once), which the CPU reads and the GPU uploads;
// each region pair keeps its level, its atlas origin and its last texel.

import PenumbraModel

/// The mip level a region pair samples, and where it lies in the draw's atlas.
@usableFromInline package struct MipRegionLevel: Hashable, Sendable {
    /// 0: the image itself (origin and last unused).
    @usableFromInline package var level: Int32
    @usableFromInline package var originX: Int32, originY: Int32
    /// The level's last column and row, relative to its origin.
    @usableFromInline package var lastX: Int32, lastY: Int32

    @usableFromInline package init(level: Int32, originX: Int32, originY: Int32, lastX: Int32, lastY: Int32) {
        self.level = level; self.originX = originX; self.originY = originY; self.lastX = lastX; self.lastY = lastY
    }

    @usableFromInline package static let image = MipRegionLevel(level: 0, originX: 0, originY: 0, lastX: 0, lastY: 0)
}

extension ImageSamplingPlan {
    /// Sets `levels` and `mipmaps` from each region's steps (image pixels per device pixel).
    mutating func chooseLevels(horizontalSteps: [SIMD2<Double>], verticalSteps: [SIMD2<Double>]) {
        var entries: [MipAtlasEntry] = []
        var width = 0, height = 0
        for ry in 0..<3 {
            for rx in 0..<3 {
                let hr = horizontal.regions[rx], vr = vertical.regions[ry]
                let nx = Int(hr.last - hr.first) + 1, ny = Int(vr.last - vr.first) + 1
                guard nx > 0, ny > 0 else { continue }
                let hs = horizontalSteps[rx], vs = verticalSteps[ry]
                let jacobian = hs.x * vs.y - hs.y * vs.x
                let level = MipLevels.level(jacobianDeterminant: jacobian,
                                            maxLevel: MipLevels.maxLevel(width: nx, height: ny))
                guard level > 0 else { continue }
                let region = PixelRect(x: Int(hr.first), y: Int(vr.first), width: nx, height: ny)
                let w = MipLevels.size(nx, level: level), h = MipLevels.size(ny, level: level)
                let entry: MipAtlasEntry
                if let existing = entries.first(where: { $0.region == region && $0.level == level }) {
                    entry = existing
                } else {
                    entry = MipAtlasEntry(region: region, level: level, originX: Int32(width), originY: 0)
                    entries.append(entry)
                    width += w; height = max(height, h)
                }
                levels[3 * ry + rx] = MipRegionLevel(level: Int32(level), originX: entry.originX, originY: entry.originY,
                                                     lastX: Int32(w - 1), lastY: Int32(h - 1))
            }
        }
        mipmaps = entries.isEmpty ? nil : MipAtlasLayout(entries: entries, width: width, height: height)
    }
}

// GeometryBudget: the points a recording may make, shared by everything that
// makes them (fills flattened as they are recorded, strokes outlined later on
// several threads at once), so the limit is the scene's, not one call's. A
// caller takes points before keeping them; once a take fails the budget stays
// spent and the recording notes where (GraphicsContext.geometryOverflow), so
// the scene is rejected with the place instead of holding gigabytes of
// outlines. Takes are atomic: strokes outlined in parallel share it safely.
import Synchronization

/// A count of geometry points that a recording may still make; shared across threads.
package final class GeometryBudget: Sendable {
    /// The most points in all.
    package let limit: Int
    private let spent = Atomic<Int>(0)

    package init(limit: Int) { self.limit = max(0, limit) }

    /// Points still available (0 once a take has failed).
    package var remaining: Int { max(0, limit - spent.load(ordering: .relaxed)) }

    /// Takes `count` points; false (and the budget spent) when they do not fit.
    package func take(_ count: Int) -> Bool {
        guard count > 0 else { return true }
        let after = spent.wrappingAdd(min(count, Int.max / 4), ordering: .relaxed).newValue
        if after < 0 || after > limit {
            spent.store(Int.max / 2, ordering: .relaxed)
            return false
        }
        return true
    }
}

extension GeometryBudget {
    /// `path` mapped through `transform` and flattened within `tolerance`, its points taken from
    /// the budget; nil (and the budget spent) when they do not fit.
    package func flatten(_ path: Path, transform: AffineTransform, tolerance: Double) -> [FlatSubpath]? {
        guard let flat = path.flattened(transform: transform, tolerance: tolerance, pointLimit: remaining),
              take(flat.reduce(0) { $0 + $1.points.count }) else {
            _ = take(Int.max)
            return nil
        }
        return flat
    }
}

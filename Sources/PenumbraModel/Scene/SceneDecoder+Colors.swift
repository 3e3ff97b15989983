// Colours and gradient stops. A colour is "#RRGGBB", "#RRGGBBAA" or
// [r, g, b, a] with each component a finite number in 0...1 (sRGB, straight
// alpha). Gradient stops are [offset, colour] pairs with offsets in 0...1,
// non-decreasing (an equal pair is a hard step), at least one stop.

extension JSONReader {
    static let colourExpectation = "a colour (\"#RRGGBB\", \"#RRGGBBAA\" or [r, g, b, a])"

    /// A colour: `"#RRGGBB"`, `"#RRGGBBAA"` or `[r, g, b, a]` in 0...1.
    func color() throws -> Color {
        switch value {
        case .string(let s):
            guard let c = Color(hex: s) else { throw error("expected \(Self.colourExpectation), got \(SceneText.quote(s))") }
            return c
        case .array:
            let items = try array()
            guard items.count == 4 else { throw error("expected 4 numbers [r, g, b, a], got \(items.count)") }
            let v = try items.map { try $0.number(in: 0...1) }
            return Color(red: v[0], green: v[1], blue: v[2], alpha: v[3])
        default:
            throw typeError(expected: Self.colourExpectation)
        }
    }

    /// Gradient stops: `[[offset, colour], ...]`, at least one, offsets in 0...1 and non-decreasing.
    func gradientStops() throws -> [GradientStop] {
        guard case .array = value else { throw typeError(expected: "an array of [offset, colour] stops") }
        let items = try array()
        guard !items.isEmpty else { throw error("a gradient needs at least one stop") }
        var stops: [GradientStop] = []
        stops.reserveCapacity(items.count)
        for item in items {
            guard case .array = item.value else { throw item.typeError(expected: "a stop [offset, colour]") }
            let pair = try item.array()
            guard pair.count == 2 else { throw item.error("expected a stop [offset, colour], got \(pair.count) values") }
            let offset = try pair[0].number(in: 0...1)
            if let previous = stops.last, offset < previous.offset {
                throw pair[0].error("stop offsets must not decrease: \(SceneText.number(offset)) "
                    + "comes after \(SceneText.number(previous.offset))")
            }
            stops.append(GradientStop(offset: offset, color: try pair[1].color()))
        }
        return stops
    }

    /// `[before, after]` booleans (the gradient's extend flags).
    func extendFlags() throws -> (Bool, Bool) {
        guard case .array = value else { throw typeError(expected: "[before, after] booleans") }
        let items = try array()
        guard items.count == 2 else { throw error("expected 2 booleans [before, after], got \(items.count) values") }
        return (try items[0].bool(), try items[1].bool())
    }
}

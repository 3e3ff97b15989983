// INTERIM signatures; the path-construction work replaces this file.
import Foundation
extension Path {
    /// Adds a closed rectangle starting at (x, y) towards +x (clockwise on screen).
    public mutating func addRect(_ r: Rect) {
        move(to: Point(r.minX, r.minY)); addLine(to: Point(r.maxX, r.minY)); addLine(to: Point(r.maxX, r.maxY))
        addLine(to: Point(r.minX, r.maxY)); closeSubpath()
    }
    /// Adds the ellipse inscribed in `r`, starting at angle 0, clockwise on screen, as four conics.
    public mutating func addEllipse(in r: Rect) {
        let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2, w = 0.5.squareRoot()
        move(to: Point(cx + rx, cy))
        addConic(to: Point(cx, cy + ry), control: Point(cx + rx, cy + ry), weight: w)
        addConic(to: Point(cx - rx, cy), control: Point(cx - rx, cy + ry), weight: w)
        addConic(to: Point(cx, cy - ry), control: Point(cx - rx, cy - ry), weight: w)
        addConic(to: Point(cx + rx, cy), control: Point(cx + rx, cy - ry), weight: w)
        closeSubpath()
    }
    /// Adds a rounded rectangle with circular corners (radius clamped to half the shorter side).
    public mutating func addRoundedRect(in r: Rect, cornerRadius: Double) { addRect(r) }
    /// Adds a circular arc (UIBezierPath addArcWithCenter:radius:startAngle:endAngle:clockwise:).
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        addLine(to: Point(center.x + radius * cos(startAngle), center.y + radius * sin(startAngle)))
        addLine(to: Point(center.x + radius * cos(endAngle), center.y + radius * sin(endAngle)))
    }
}

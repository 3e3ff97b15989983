// The seeds' UIKit programs with PenumbraUI: the self-sizing Note as views
// (a chrome image view holding a label sized by its text) and the hypnosis
// view drawing itself in `draw(_:in:)` inside a window with subviews. Each
// draws the bytes of Examples/views-note.json and views-hypnosis.json.
import Penumbra
import PenumbraText
import PenumbraUI

/// BNRHypnosisView: concentric purple circles 20 points apart, drawn by the view itself.
final class HypnosisView: View, @unchecked Sendable {
    override func draw(_ rect: Rect, in context: GraphicsContext) {
        context.setStrokeColor(Color(red: 0.5, green: 0, blue: 0.5))
        context.setLineWidth(10)
        let center = Point(rect.midX, rect.midY)
        for radius in stride(from: min(rect.width, rect.height) / 2, to: 0, by: -20) {
            context.stroke(Path(arcCenter: center, radius: radius, startAngle: 0, endAngle: 2 * .pi, clockwise: true))
        }
    }
}

/// A label in DejaVu Sans, centred, in one colour.
func centredLabel(_ text: String, frame: Rect, size: Double, weight: Int = 400, color: Color) -> Label {
    let label = Label(frame: frame)
    label.text = text
    label.font = Font(family: "DejaVu Sans", size: size, weight: weight)
    label.textAlignment = .center
    label.textColor = color
    return label
}

/// The hypnosis view in a window, under a title and above a "Wake up" button.
func viewsHypnosis() throws -> Image {
    let window = View(frame: Rect(x: 0, y: 0, width: 400, height: 540))
    window.backgroundColor = Color(hex: "#F2F2F7")!
    window.addSubview(centredLabel("You are getting sleepy\u{2026}", frame: Rect(x: 20, y: 20, width: 360, height: 30), size: 22,
                                   color: Color(hex: "#1C1C1E")!))
    let hypnosis = HypnosisView(frame: Rect(x: 20, y: 64, width: 360, height: 360))
    hypnosis.backgroundColor = .white
    window.addSubview(hypnosis)
    let button = View(frame: Rect(x: 120, y: 452, width: 160, height: 44))
    button.backgroundColor = Color(hex: "#007AFF")!
    button.layer.cornerRadius = 10
    button.addSubview(centredLabel("Wake up", frame: button.bounds, size: 17, weight: 700, color: .white))
    window.addSubview(button)
    return try ImageRenderer(size: window.bounds.size, scale: 2, opaque: true).image { context in
        window.drawHierarchy(in: window.bounds, context: context)
    }
}

/// The seed's Note class as views: a resizable chrome in an image view, a label inside it sized
/// by its text (wrapped at 300 points), the note grown around the label by the chrome's insets.
func viewsNote() throws -> Image {
    let insets = EdgeInsets(top: 37, left: 12, bottom: 12, right: 12)
    let note = try exampleImage("note@2x.png")
    let texts: [(String, Double, Point)] = [
        ("Hi!", 25, Point(10, 10)),
        ("Je me taille en fonction de mon contenu!", 30, Point(200, 10)),
        ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et "
            + "dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip "
            + "ex ea commodo consequat.", 16, Point(10, 200)),
    ]
    let root = View(frame: Rect(x: 0, y: 0, width: 540, height: 470))
    for (text, size, origin) in texts {
        let label = Label(frame: Rect(x: insets.left, y: insets.top, width: 300, height: 0))
        label.text = text
        label.font = Font(family: "DejaVu Sans", size: size)
        label.numberOfLines = 0
        label.lineBreakMode = .wordWrap
        label.sizeToFit()
        // The note's size: the label's grown by the insets, in whole points.
        let noteSize = Size(width: (label.frame.maxX + insets.right).rounded(.up),
                            height: (label.frame.maxY + insets.bottom).rounded(.up))
        // The chrome drawn resizable at the note's size (a UIImage made once per size).
        let chrome = try ImageRenderer(size: noteSize).image { context in
            context.draw(note.resizable(capInsets: insets, mode: .tile), in: Rect(origin: .zero, size: noteSize))
        }
        let chromeView = ImageView(image: chrome)
        chromeView.frame = Rect(origin: origin, size: noteSize)
        chromeView.addSubview(label)
        root.addSubview(chromeView)
    }
    return try ImageRenderer(size: root.bounds.size, opaque: true).image { context in
        root.drawHierarchy(in: root.bounds, context: context)
    }
}

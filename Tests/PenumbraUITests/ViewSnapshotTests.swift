import XCTest
import Penumbra
import PenumbraUI
import PenumbraSnapshotTesting
import SnapshotTesting

/// The view layer's look, pinned by image snapshots (references in __Snapshots__, recorded once
/// and looked at): the seed's note, a layer showcase, tint and direction, and a blur with
/// vibrancy. Every renderer gives these bytes, so the references hold on any Linux machine.
final class ViewSnapshotTests: XCTestCase {
    func testNoteSizedByItsText() {
        let note = View(frame: Rect(x: 0, y: 0, width: 220, height: 10))
        note.backgroundColor = Color(red: 1, green: 0.97, blue: 0.75)
        note.layer.cornerRadius = 10
        note.layer.borderWidth = 1
        note.layer.borderColor = Color(red: 0.85, green: 0.75, blue: 0.4)
        let label = Label(frame: Rect(x: 12, y: 10, width: 196, height: 10))
        label.text = "Buy milk, call the plumber, and water the plants before Friday."
        label.numberOfLines = 0
        label.font = Font(size: 15)
        label.sizeToFit()
        note.addSubview(label)
        note.bounds.size = Size(width: 220, height: label.frame.maxY + 10)
        assertSnapshot(of: note, as: .image)
    }

    func testLayers() {
        let root = View(frame: Rect(x: 0, y: 0, width: 240, height: 120))
        root.backgroundColor = .white
        let card = View(frame: Rect(x: 16, y: 16, width: 96, height: 80))
        card.backgroundColor = Color(red: 1, green: 0.58, blue: 0)
        card.layer.cornerRadius = 14
        card.layer.shadowOpacity = 0.5
        card.layer.shadowRadius = 5
        card.layer.shadowOffset = Size(width: 0, height: 4)
        let clipped = View(frame: Rect(x: 128, y: 16, width: 96, height: 80))
        clipped.backgroundColor = Color(red: 0.2, green: 0.78, blue: 0.35)
        clipped.layer.cornerRadius = 14
        clipped.layer.borderWidth = 3
        clipped.clipsToBounds = true
        let inner = View(frame: Rect(x: 48, y: 40, width: 80, height: 80))
        inner.backgroundColor = Color(red: 0, green: 0.48, blue: 1)
        clipped.addSubview(inner)
        root.addSubview(card); root.addSubview(clipped)
        assertSnapshot(of: root, as: .image)
    }

    func testTintAndRightToLeft() {
        var pixels = [UInt8](repeating: 0, count: 12 * 12 * 4)
        for y in 2..<10 { for x in 2..<(y + 1) { pixels[(y * 12 + x) * 4 + 3] = 255 } }   // a triangle pointing right
        let arrow = Image(bitmap: Bitmap(width: 12, height: 12, pixels: pixels), scale: 1)
            .withRenderingMode(.template).imageFlippedForRightToLeftLayoutDirection()
        let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 60))
        root.backgroundColor = .white
        root.tintColor = Color(red: 0.8, green: 0.1, blue: 0.3)
        let row = View(frame: Rect(x: 0, y: 0, width: 200, height: 60))
        let icon = ImageView(image: arrow)
        icon.frame = Rect(x: 8, y: 14, width: 32, height: 32)
        let label = Label(frame: Rect(x: 48, y: 16, width: 144, height: 28))
        label.text = "Natural"
        row.addSubview(icon); row.addSubview(label)
        root.addSubview(row)
        assertSnapshot(of: root, as: .image(layoutDirection: .leftToRight), named: "ltr")
        assertSnapshot(of: root, as: .image(layoutDirection: .rightToLeft), named: "rtl")
    }

    func testBlurAndVibrancy() {
        let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        for i in 0..<8 {
            let stripe = View(frame: Rect(x: Double(i) * 25, y: 0, width: 25, height: 100))
            stripe.backgroundColor = Color(red: Double(i) / 7, green: 0.4, blue: 1 - Double(i) / 7)
            root.addSubview(stripe)
        }
        let blur = VisualEffectView(effect: .blur(.light), frame: Rect(x: 16, y: 16, width: 168, height: 68))
        blur.layer.cornerRadius = 12
        let vibrancy = VisualEffectView(effect: .vibrancy(.light), frame: blur.bounds)
        let label = Label(frame: Rect(x: 12, y: 12, width: 144, height: 44))
        label.text = "Vibrant"
        label.font = Font(size: 26, weight: 700)
        vibrancy.addSubview(label)
        blur.addSubview(vibrancy)
        root.addSubview(blur)
        assertSnapshot(of: root, as: .image(scale: 1))
    }
}

// The view damage benchmark: a list of 1,000 views (200 rows of an image
// view, two labels and a separator, plus the row views, in a
// clipping view whose bounds origin scrolls them) on a phone-sized canvas at
// 2x. It times full renders and partial re-renders after one label's text
// changes, in one run on one renderer, and prints the medians and their
// ratio as JSON:
//     swift run -c release penumbra-view-bench [--runs N] [--backend cpu|gpu]
import Foundation
import Penumbra
import PenumbraUI

var runs = 21
var backend = Backend.cpu
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--runs": runs = Int(arguments.popFirst() ?? "") ?? runs
    case "--backend": backend = Backend(rawValue: arguments.popFirst() ?? "") ?? backend
    default: FileHandle.standardError.write(Data("usage: penumbra-view-bench [--runs N] [--backend cpu|gpu]\n".utf8)); exit(2)
    }
}

func makeList() -> (root: View, labels: [Label], views: Int) {
    let root = View(frame: Rect(x: 0, y: 0, width: 390, height: 844))
    root.backgroundColor = Color(red: 0.95, green: 0.95, blue: 0.97)
    let list = View(frame: root.bounds)
    list.clipsToBounds = true
    list.bounds = Rect(x: 0, y: 2_000, width: 390, height: 844)  // scrolled into the middle of the list
    root.addSubview(list)
    var pixels = [UInt8](repeating: 0, count: 64 * 64 * 4)
    for y in 0..<64 { for x in 0..<64 {
        let i = (y * 64 + x) * 4
        pixels[i] = UInt8(x * 4); pixels[i + 1] = UInt8(y * 4); pixels[i + 2] = 160; pixels[i + 3] = 255
    } }
    let photo = Image(bitmap: Bitmap(width: 64, height: 64, pixels: pixels), scale: 2)
    var labels: [Label] = []
    var views = 2  // the root and the list; then each row and its four subviews
    for r in 0..<200 {
        let row = View(frame: Rect(x: 0, y: Double(r) * 60, width: 390, height: 60))
        let image = ImageView(image: photo)
        image.frame = Rect(x: 16, y: 8, width: 44, height: 44)
        image.layer.cornerRadius = 8
        image.clipsToBounds = true
        let title = Label(frame: Rect(x: 72, y: 6, width: 300, height: 26))
        title.text = "Row \(r): a title long enough to matter"
        title.font = Font(size: 17, weight: 600)
        let detail = Label(frame: Rect(x: 72, y: 32, width: 300, height: 20))
        detail.text = "Detail text for row \(r), in a smaller grey font"
        detail.font = Font(size: 13)
        detail.textColor = Color(red: 0.45, green: 0.45, blue: 0.5)
        let separator = View(frame: Rect(x: 72, y: 59.5, width: 318, height: 0.5))
        separator.backgroundColor = Color(red: 0.78, green: 0.78, blue: 0.8)
        row.addSubview(image); row.addSubview(title); row.addSubview(detail)
        row.addSubview(separator)
        list.addSubview(row)
        labels.append(title)
        views += 5
    }
    return (root, labels, views)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let (root, labels, views) = makeList()
let renderer = try backend.makeRenderer().renderer
let partial = ViewRenderer(view: root, scale: 2, renderer: renderer)
_ = try partial.render()  // warm up, and the frame partial renders start from
let visible = labels[35]  // row 35 is on screen (rows 33...47 at a scroll of 2,000 points)

var fullTimes: [Double] = [], partialTimes: [Double] = []
var repaint = 0
for run in 0..<runs {
    visible.text = "Row 35: changed \(run)"
    var start = DispatchTime.now().uptimeNanoseconds
    _ = try partial.render()
    partialTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    repaint = (partial.lastRepaint?.width ?? 0) * (partial.lastRepaint?.height ?? 0)

    let full = ViewRenderer(view: root, scale: 2, renderer: renderer)
    start = DispatchTime.now().uptimeNanoseconds
    _ = try full.render()
    fullTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}
let result: [String: Any] = [
    "views": views, "renderer": renderer.name, "runs": runs,
    "full_ms": median(fullTimes), "partial_ms": median(partialTimes),
    "ratio": median(partialTimes) / median(fullTimes), "repainted_pixels": repaint, "canvas_pixels": 780 * 1688,
]
let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))

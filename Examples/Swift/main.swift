// The seeds' programs written in Swift against Penumbra's public API, one function each, every
// one drawing what the scene of the same name in Examples/ draws, byte for byte (a test renders
// both and compares them). Run it from the repository root:
//
//     swift run penumbra-examples [OUTPUT-FOLDER]     # writes hypnosis.png, decorator.png, ...
//
// It is an executable of this package that the library's users never build, and it is compiled
// without package access, so it can call only what a client of the library can.
import Foundation
import Penumbra
import PenumbraText

let imagesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("images")

/// One of the seeds' images, from Examples/images (an `@2x` name sets the scale, as UIImage does).
func exampleImage(_ file: String) throws -> Image {
    try Image(contentsOf: imagesFolder.appendingPathComponent(file))
}

/// BNRHypnosisView's drawRect: concentric circles 20 points apart, 10 points wide, in purple,
/// from the corner-to-corner radius down; then the seed's blue oval in the top-left corner.
func hypnosis() throws -> Image {
    try ImageRenderer(size: Size(width: 1024, height: 1024), opaque: true).image { context in
        context.setStrokeColor(Color(red: 0.5, green: 0, blue: 0.5))
        context.setLineWidth(10)
        for radius in stride(from: 512.0, to: 0, by: -20) {
            context.stroke(Path(arcCenter: Point(512, 512), radius: radius, startAngle: 0, endAngle: 2 * .pi, clockwise: true))
        }
        context.setFillColor(Color(red: 0, green: 0, blue: 1))
        context.fill(Path(ellipseIn: Rect(x: 0, y: 0, width: 100, height: 100)))
    }
}

/// The seed's first drawing: a blue oval filling a 100 x 100 point image at 2x.
func oval() throws -> Image {
    try ImageRenderer(size: Size(width: 100, height: 100), scale: 2, opaque: true).image { context in
        context.setFillColor(Color(red: 0, green: 0, blue: 1))
        context.fill(Path(ellipseIn: Rect(x: 0, y: 0, width: 100, height: 100)))
    }
}

/// The seed's decorator chain: Mars turned by -45 degrees (and moved so that it turns about its
/// middle), with a drop shadow around the turned image, drawn at (300, 350).
func decorator() throws -> Image {
    let mars = try exampleImage("mars.png")
    let turn = AffineTransform(rotationAngle: -.pi / 4)
        .concatenating(AffineTransform(translationX: -mars.size.width / 2, y: mars.size.height / 8))
    return try ImageRenderer(size: Size(width: 1024, height: 1024), opaque: true).image { context in
        context.translateBy(x: 300, y: 350)
        mars.transformed(by: turn)
            .withDropShadow(offset: Size(width: -25, height: 15), blur: 20)
            .draw(at: .zero, context: context)
    }
}

/// Mars over itself, the upper copy in the multiply blend mode (drawAtPoint:blendMode:alpha:).
func multiply() throws -> Image {
    let mars = try exampleImage("mars.png")
    return try ImageRenderer(size: Size(width: 1024, height: 1024)).image { context in
        context.draw(mars, in: Rect(x: 0, y: 0, width: 1024, height: 1024))
        context.draw(mars, at: Point(256, 256), blendMode: .multiply)
    }
}

/// The seed's template images: one icon as it is, then as a template in several tints (the
/// last one flipped as for a right-to-left layout), and at a larger size in the default black.
func template() throws -> Image {
    let icon = try exampleImage("icon.png")
    return try ImageRenderer(size: Size(width: 500, height: 240)).image { context in
        context.setFillColor(Color(hex: "#FAFAFA")!)
        context.fill(Path(rect: Rect(x: 0, y: 0, width: 500, height: 240)))
        context.draw(icon, at: Point(16, 16))
        let tints = ["#000000", "#E53935", "#43A047CC"].map { Color(hex: $0)! } + [Color(red: 0.1, green: 0.4, blue: 0.9, alpha: 0.5)]
        for (i, tint) in tints.enumerated() {
            context.draw(icon.withRenderingMode(.template, tint: tint), in: Rect(x: 96 + 80 * Double(i), y: 16, width: 64, height: 64))
        }
        context.draw(icon.withRenderingMode(.template, tint: Color(hex: "#8E24AA")!).flippedHorizontally(),
                     in: Rect(x: 416, y: 16, width: 64, height: 64))
        context.draw(icon.withRenderingMode(.template), in: Rect(x: 16, y: 96, width: 128, height: 128))
    }
}

/// "Hello, world!" in DejaVu Sans 17 at (20, 20), a 200 x 60 point image at 2x.
func hello() throws -> Image {
    try ImageRenderer(size: Size(width: 200, height: 60), scale: 2, opaque: true).image { context in
        try context.draw(AttributedText("Hello, world!", font: Font(family: "DejaVu Sans", size: 17)), at: Point(20, 20))
    }
}

/// The seed's self-sizing notes: text wrapped at 300 points inside a resizable chrome image
/// (cap insets 37, 12, 12, 12, tiled), the chrome grown around the text by its padding.
func note() throws -> Image {
    let chrome = try exampleImage("note@2x.png")
        .resizable(capInsets: EdgeInsets(top: 37, left: 12, bottom: 12, right: 12), mode: .tile)
    let padding = EdgeInsets(top: 37, left: 12, bottom: 12, right: 12)
    let notes: [(String, Double, Point)] = [
        ("Hi!", 25, Point(10, 10)),
        ("Je me taille en fonction de mon contenu!", 30, Point(200, 10)),
        ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et "
            + "dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip "
            + "ex ea commodo consequat.", 16, Point(10, 200)),
    ]
    return try ImageRenderer(size: Size(width: 540, height: 470), opaque: true).image { context in
        for (text, size, origin) in notes {
            let note = try TextNote(AttributedText(text, font: Font(family: "DejaVu Sans", size: size)),
                                    chrome: chrome, padding: padding, maxWidth: 300)
            note.draw(at: origin, context: context)
        }
    }
}

/// The seed's vignette: Mars through blendWithMask with a radial gradient from white (inside
/// 85% of the radius) to black, over a transparent background, drawn on white.
func vignette() throws -> Image {
    let mars = try exampleImage("mars.png")
    let mask = FilterImage.radialGradient(center: Point(256, 256), radius0: 217.6, radius1: 256)
    let vignetted = try FilterContext().createImage(mars.filterImage.blended(withMask: mask))
    return try ImageRenderer(size: Size(width: 512, height: 512), opaque: true).image { context in
        context.draw(vignetted, in: Rect(x: 0, y: 0, width: 512, height: 512))
    }
}

let examples: [(String, () throws -> Image)] = [
    ("hypnosis", hypnosis), ("oval", oval), ("decorator", decorator), ("multiply", multiply),
    ("template", template), ("hello", hello), ("note", note), ("vignette", vignette),
    ("views-hypnosis", viewsHypnosis), ("views-note", viewsNote),
]

let output = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : ".", isDirectory: true)
do {
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    for (name, make) in examples {
        let file = output.appendingPathComponent(name + ".png")
        try Data(PNGEncoder().encode(make().bitmap)).write(to: file, options: .atomic)
        print(file.path)
    }
} catch {
    FileHandle.standardError.write(Data("penumbra-examples: \(error)\n".utf8))
    exit(1)
}

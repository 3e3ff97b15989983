// The new image forms on the GPU: once decoded they are bitmaps, so a JPEG
// with an orientation tag, a lossless WebP, an APNG frame, a named @2x
// image, an offscreen image and a content-mode placement drawn 1:1 come out
// of the GPU byte for byte as on the CPU; scaled and turned draws meet the
// parity contract (their sampling arithmetic is the renderers' own).
import Foundation
import XCTest
import Penumbra
import PenumbraCPU
import PenumbraGPU

final class ImageFormatParityTests: XCTestCase {
    func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-gpu-img-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let images = GPUTestSupport.examples.appendingPathComponent("images")
        for name in ["photo.jpg", "rocks.png", "rocks@2x.png"] {
            try FileManager.default.copyItem(at: images.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let rocks = try Image(contentsOf: images.appendingPathComponent("rocks@2x.png"))
        try Data(WebPEncoder(lossless: true).encode(rocks.bitmap)).write(to: folder.appendingPathComponent("rocks.webp"))
        let frames = try (1...3).map { try Image(contentsOf: images.appendingPathComponent("explosion\($0).png")).bitmap }
        try Data(APNGEncoder().encode(frames, fps: 4)).write(to: folder.appendingPathComponent("boom.png"))
        return folder
    }

    func testDecodedImagesDrawnOneToOneAreByteIdentical() throws {
        let gpu = try GPUTestSupport.renderer()
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = """
            {"format": "penumbra-scene", "version": 1, "size": [400, 300], "background": "#336699", "time": 0.3,
             "images": {"photo": "photo.jpg", "webp": "rocks.webp", "boom": "boom.png", "rock": {"named": "rocks"},
                        "card": {"size": [60, 40], "background": "#FFFFFF80", "ops": [{"op": "drawImage", "image": "rock", "at": [4, 4]}]}},
             "ops": [{"op": "drawImage", "image": "photo", "at": [0, 0]},
                     {"op": "drawImage", "image": "webp", "at": [10, 10]},
                     {"op": "drawImage", "image": "boom", "at": [120, 10]},
                     {"op": "drawImage", "image": "rock", "at": [200, 10]},
                     {"op": "drawImage", "image": "card", "at": [260, 10]},
                     {"op": "drawImage", "image": "rock", "rect": [10, 150, 200, 100], "contentMode": "center", "clipsToBounds": true}]}
            """
        let scene = try Scene.decode(json, baseDirectory: folder.path, environment: .standard)
        XCTAssertEqual(scene.images["photo"]?.bitmap.width, 1600, "the photo's orientation tag turned it upright")
        XCTAssertEqual(scene.images["rock"]?.scale, 1)
        let list = try scene.displayList()
        let cpu = try CPURenderer().render(list), out = try gpu.render(list)
        let diff = try XCTUnwrap(ImageDifference(cpu, out))
        XCTAssertTrue(diff.isExact, "\(diff)")
    }

    func testScaledAndTurnedDrawsMeetTheParityContract() throws {
        let gpu = try GPUTestSupport.renderer()
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = """
            {"format": "penumbra-scene", "version": 1, "size": [300, 200], "scale": 2, "background": "#FFFFFF",
             "images": {"photo": {"path": "photo.jpg", "orientation": "left"}, "rock": {"named": "rocks"}},
             "ops": [{"op": "drawImage", "image": "photo", "rect": [0, 0, 140, 190], "contentMode": "scaleAspectFill", "clipsToBounds": true},
                     {"op": "rotate", "angle": 0.2}, {"op": "drawImage", "image": "rock", "rect": [160, 20, 100, 60], "contentMode": "scaleAspectFit"}]}
            """
        let scene = try Scene.decode(json, baseDirectory: folder.path, environment: .standard)
        XCTAssertEqual(scene.images["rock"]?.scale, 2, "the @2x variant on a @2x canvas")
        try GPUTestSupport.assertParity(scene.displayList(), name: "image-formats-scaled", gpu: gpu)
    }

    /// Shrink-on-load: the photo drawn at 1/10 and turned at 1/5 is decoded at 1/4 by libjpeg (the
    /// smaller level of its two draws); its levels come from that image on both renderers alike.
    func testAJPEGShrunkOnLoadIsByteIdentical() throws {
        let gpu = try GPUTestSupport.renderer()
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = """
            {"format": "penumbra-scene", "version": 1, "size": [400, 300], "background": "#FFFFFF",
             "images": {"photo": "photo.jpg"},
             "ops": [{"op": "setShadow", "offset": [4, 4], "blur": 3},
                     {"op": "drawImage", "image": "photo", "rect": [10, 10, 160, 120]},
                     {"op": "translate", "x": 250, "y": 40}, {"op": "rotate", "angle": 0.4},
                     {"op": "drawImage", "image": "photo", "rect": [0, 0, 320, 240], "interpolation": "high"}]}
            """
        let scene = try Scene.decode(json, baseDirectory: folder.path, environment: .standard)
        XCTAssertEqual(scene.images["photo"]?.bitmap.width, 400, "decoded at 1/4")
        XCTAssertEqual(scene.images["photo"]?.scale, 0.25)
        let list = try scene.displayList()
        let cpu = try CPURenderer().render(list), out = try gpu.render(list)
        let diff = try XCTUnwrap(ImageDifference(cpu, out))
        XCTAssertTrue(diff.isExact, "\(diff)")
    }
}

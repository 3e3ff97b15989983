import XCTest
@testable import PenumbraText
import PenumbraModel
import PenumbraCore

/// The example scenes name "DejaVu Sans" so that their pixels are fixed: fontconfig must resolve it
/// to Debian's DejaVuSans.ttf (fonts-dejavu-core), and colour emoji to Noto Color Emoji.
final class FontResolutionTests: XCTestCase {
    func testDejaVuSansResolvesToTheDebianFile() throws {
        let regular = try XCTUnwrap(FontMatcher.shared.match(family: "DejaVu Sans", weight: 400, italic: false))
        XCTAssertEqual(regular.file, "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        let bold = try XCTUnwrap(FontMatcher.shared.match(family: "DejaVu Sans", weight: 700, italic: false))
        XCTAssertEqual(bold.file, "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
        let emoji = try XCTUnwrap(FontMatcher.shared.match(family: "emoji", weight: 400, italic: false))
        XCTAssertEqual(emoji.file, "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
        XCTAssertTrue(try FontCache.shared.face(emoji).isColorBitmap)
    }

    func testUnknownFamiliesAreToldApartFromInstalledAndGenericOnes() {
        XCTAssertTrue(FontMatcher.shared.familyExists("DejaVu Sans"))
        XCTAssertTrue(FontMatcher.shared.familyExists("sans-serif"))
        XCTAssertTrue(FontMatcher.shared.familyExists("monospace"))
        XCTAssertFalse(FontMatcher.shared.familyExists("No Such Family Anywhere"))
    }
}

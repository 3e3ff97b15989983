// SVG documents drawn by PenumbraSVG render byte-identically on the CPU and the GPU: the
// reader emits only GraphicsContext calls, so these check the calls it uses together (gradient
// fills under clips, stroked gradients through source-in layers, multi-shape clips through
// destination-out layers, patterns, group opacity, dashes and joins, luminance and alpha masks
// and a mask on a mask, markers with context paint), and an SVG image in a scene.
import Foundation
import XCTest
import Penumbra
import PenumbraGPU
import PenumbraSVG

final class SVGParityTests: XCTestCase {
    static let documents: [(String, String)] = [
        ("shapes", """
        <svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'>
          <rect x='10' y='10' width='50' height='30' rx='8' fill='#3a7' stroke='navy' stroke-width='3'/>
          <circle cx='70' cy='60' r='25' fill='rgba(255,0,0,0.6)' stroke='black' stroke-dasharray='6 3' stroke-width='2'/>
          <path d='M10 90 L30 60 L50 90 A20 10 30 0 1 90 90' fill='none' stroke='purple' stroke-width='5' stroke-linejoin='round' stroke-linecap='round'/>
          <polygon points='60,5 95,5 80,30' fill='gold' fill-rule='evenodd'/>
        </svg>
        """),
        ("gradients", """
        <svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'>
          <linearGradient id='l' x1='0' y1='0' x2='1' y2='1'><stop offset='0' stop-color='red'/><stop offset='.5' stop-color='yellow' stop-opacity='.5'/><stop offset='1' stop-color='blue'/></linearGradient>
          <radialGradient id='r' cx='.5' cy='.5' r='.5' fx='.3' fy='.3'><stop offset='0' stop-color='white'/><stop offset='1' stop-color='green'/></radialGradient>
          <linearGradient id='rep' href='#l' x2='0.25' y2='0' spreadMethod='reflect'/>
          <rect x='5' y='5' width='40' height='40' fill='url(#l)'/>
          <ellipse cx='70' cy='30' rx='25' ry='20' fill='url(#r)' stroke='url(#l)' stroke-width='6'/>
          <rect x='5' y='55' width='90' height='40' fill='url(#rep)'/>
        </svg>
        """),
        ("clips-opacity", """
        <svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'>
          <clipPath id='one'><circle cx='30' cy='30' r='25'/></clipPath>
          <clipPath id='two'><rect width='40' height='100'/><circle cx='75' cy='75' r='20' transform='rotate(10)'/></clipPath>
          <g clip-path='url(#one)' opacity='0.7'><rect width='100' height='100' fill='teal'/><rect x='20' y='20' width='60' height='60' fill='orange'/></g>
          <rect x='10' y='40' width='85' height='55' fill='crimson' clip-path='url(#two)' opacity='0.5'/>
        </svg>
        """),
        ("patterns", """
        <svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'>
          <pattern id='p' width='0.25' height='0.25' patternTransform='rotate(20)'>
            <circle cx='6' cy='6' r='5' fill='navy' opacity='0.8'/><rect x='8' y='8' width='6' height='6' fill='tomato'/>
          </pattern>
          <rect x='5' y='5' width='90' height='50' fill='url(#p)'/>
          <circle cx='50' cy='75' r='18' fill='none' stroke='url(#p)' stroke-width='8'/>
        </svg>
        """),
        ("markers-context-paint", """
        <svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'>
          <linearGradient id='g'><stop offset='0' stop-color='gold'/><stop offset='1' stop-color='purple'/></linearGradient>
          <marker id='arrow' viewBox='0 0 10 10' refX='5' refY='5' markerWidth='4' markerHeight='4' orient='auto-start-reverse'>
            <path d='M 0 0 L 10 5 L 0 10 z' fill='context-stroke' stroke='context-fill' stroke-width='0.5'/>
          </marker>
          <path d='M 10 80 C 20 10 60 10 70 50 S 90 90 95 20' fill='url(#g)' fill-opacity='0.4' stroke='teal' stroke-width='3'
                marker-start='url(#arrow)' marker-mid='url(#arrow)' marker-end='url(#arrow)' paint-order='markers stroke'/>
        </svg>
        """),
        ("masks", """
        <svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'>
          <linearGradient id='fade'><stop offset='0' stop-color='white' stop-opacity='0'/><stop offset='1' stop-color='black'/></linearGradient>
          <linearGradient id='warm'><stop offset='0' stop-color='yellow'/><stop offset='1' stop-color='#a03'/></linearGradient>
          <mask id='lum'><rect x='5' y='5' width='90' height='40' fill='url(#fade)'/><circle cx='70' cy='25' r='12' fill='gray'/></mask>
          <mask id='alpha' mask-type='alpha' maskContentUnits='objectBoundingBox'><circle cx='.5' cy='.5' r='.45' fill='url(#warm)' fill-opacity='.7'/></mask>
          <mask id='outer' mask='url(#alpha)' maskUnits='userSpaceOnUse' x='0' y='50' width='100' height='50'><rect width='100' height='100' fill='url(#warm)'/></mask>
          <rect width='100' height='50' fill='teal' mask='url(#lum)'/>
          <g mask='url(#outer)' opacity='.8' transform='rotate(8 50 75)'><rect x='10' y='55' width='80' height='40' fill='navy'/><circle cx='50' cy='75' r='15' fill='orange'/></g>
        </svg>
        """),
    ]

    /// Examples/svg-logo.json: an SVG image of a scene drawn as vectors at several sizes, tinted,
    /// cropped, with alpha and a shadow (GraphicsContext+VectorImages.swift).
    func testTheSVGLogoExampleIsByteIdenticalOnBothRenderers() throws {
        let gpu = try GPUTestSupport.renderer()
        let list = try GPUTestSupport.loadScene(GPUTestSupport.examples.appendingPathComponent("svg-logo.json")).displayList()
        try GPUTestSupport.assertParity(list, name: "svg-logo", gpu: gpu)
    }

    func testSVGDocumentsAreByteIdenticalOnBothRenderers() throws {
        let gpu = try GPUTestSupport.renderer()
        for (name, text) in Self.documents {
            let doc = try SVGDocument(bytes: Array(text.utf8), codecs: .standard)
            for size in [64, 157] {
                let ctx = GraphicsContext(pixelWidth: size, pixelHeight: size)
                try doc.draw(in: ctx, width: Double(size), height: Double(size))
                try GPUTestSupport.assertParity(ctx.displayList, name: "svg-\(name)-\(size)", gpu: gpu)
            }
        }
    }
}

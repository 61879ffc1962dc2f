import Foundation
import TaskGraphCore

/// A small anti-aliased font for captions (printable ASCII; anything else draws as `?`), drawn
/// straight into interleaved 8-bit pixel rows.
enum CaptionFont {
    /// Alpha (0…255) of every glyph pixel, glyphs one after another, and each glyph's offset.
    private static let glyphs: (alpha: [UInt8], offsets: [Int]) = {
        let packed = Data(base64Encoded: packedAlpha, options: .ignoreUnknownCharacters) ?? Data()
        var alpha: [UInt8] = []
        alpha.reserveCapacity(packed.count * 2)
        for byte in packed {
            alpha.append((byte >> 4) * 17)
            alpha.append((byte & 0x0F) * 17)
        }
        var offsets: [Int] = []
        var offset = 0
        for width in glyphWidths {
            offsets.append(offset)
            offset += width * glyphHeight
        }
        return (alpha, offsets)
    }()

    /// The width `text` takes, in pixels.
    static func width(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + glyphWidths[glyphIndex($1)] }
    }

    /// `text`, cut and ended with `...` where needed so it fits in `maximumWidth` pixels.
    static func fitting(_ text: String, in maximumWidth: Int) -> String {
        guard width(of: text) > maximumWidth else { return text }
        var shortened = text
        while !shortened.isEmpty, width(of: shortened + "...") > maximumWidth { shortened.removeLast() }
        return shortened + "..."
    }

    /// Draws `text` with its top-left corner at (`x`, `y`) into `pixels` (rows of `width` pixels of
    /// `channels` samples), blending `color` by each glyph pixel's alpha; clipped to the image.
    static func draw(
        _ text: String, x: Int, y: Int, color: (UInt8, UInt8, UInt8),
        into pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, channels: Int
    ) {
        let (alpha, offsets) = glyphs
        var penX = x
        for scalar in text.unicodeScalars {
            let glyph = glyphIndex(scalar)
            let glyphWidth = glyphWidths[glyph]
            for row in 0..<glyphHeight where (0..<height).contains(y + row) {
                for column in 0..<glyphWidth where (0..<width).contains(penX + column) {
                    let coverage = UInt16(alpha[offsets[glyph] + row * glyphWidth + column])
                    guard coverage > 0 else { continue }
                    let base = ((y + row) * width + penX + column) * channels
                    for (channel, ink) in [color.0, color.1, color.2].enumerated() {
                        let old = UInt16(pixels[base + channel])
                        pixels[base + channel] = UInt8((old * (255 - coverage) + UInt16(ink) * coverage + 127) / 255)
                    }
                }
            }
            penX += glyphWidth
        }
    }

    private static func glyphIndex(_ scalar: Unicode.Scalar) -> Int {
        (32...126).contains(scalar.value) ? Int(scalar.value) - 32 : Int(("?" as Unicode.Scalar).value) - 32
    }
}

import Foundation
import TaskGraphCore

/// The EXIF orientation of a JPEG (tag 0x0112 in IFD0 of its APP1 `Exif` segment): how the
/// stored pixels must be flipped or rotated to appear upright.
struct EXIFOrientation: Equatable {
    /// 1 (upright) through 8, as EXIF numbers them.
    let value: Int

    /// The orientation recorded in `jpeg`, or 1 when there is none or it is malformed.
    init(jpeg: Data) {
        let bytes = [UInt8](jpeg.prefix(1 << 17))
        value = Self.find(in: bytes) ?? 1
    }

    /// Walks the markers before the first scan looking for an `Exif` APP1 segment.
    private static func find(in bytes: [UInt8]) -> Int? {
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let start = offset + 4
            let end = offset + 2 + length
            guard length >= 2, end <= bytes.count else { return nil }
            if marker == 0xE1, bytes[start..<end].starts(with: Array("Exif\0\0".utf8)) {
                return orientation(tiff: Array(bytes[(start + 6)..<end]))
            }
            offset = end
        }
        return nil
    }

    /// Reads tag 0x0112 (a SHORT) from IFD0 of a TIFF structure.
    private static func orientation(tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little = tiff[0] == 0x49 && tiff[1] == 0x49
        guard little || (tiff[0] == 0x4D && tiff[1] == 0x4D) else { return nil }
        func read(_ at: Int, _ size: Int) -> Int? {
            guard at >= 0, at + size <= tiff.count else { return nil }
            let slice = tiff[at..<(at + size)]
            return (little ? slice.reversed() : Array(slice)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard read(2, 2) == 42, let ifd = read(4, 4), let count = read(ifd, 2) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = read(at, 2) else { return nil }
            if tag == 0x0112 {
                guard read(at + 2, 2) == 3, let value = read(at + 8, 2), (1...8).contains(value) else { return nil }
                return value
            }
        }
        return nil
    }

    /// `image` turned upright.
    func apply(to image: Image) -> Image {
        guard value != 1 else { return image }
        let (w, h, c) = (image.width, image.height, image.channels)
        let swaps = value >= 5
        let outWidth = swaps ? h : w
        let outHeight = swaps ? w : h
        // Source column and row for output (x, y) are affine: origin + x·dx + y·dy.
        let (origin, dx, dy): ((Int, Int), (Int, Int), (Int, Int)) =
            switch value {
            case 2: ((w - 1, 0), (-1, 0), (0, 1))
            case 3: ((w - 1, h - 1), (-1, 0), (0, -1))
            case 4: ((0, h - 1), (1, 0), (0, -1))
            case 5: ((0, 0), (0, 1), (1, 0))
            case 6: ((0, h - 1), (0, -1), (1, 0))
            case 7: ((w - 1, h - 1), (0, -1), (-1, 0))
            default: ((w - 1, 0), (0, 1), (-1, 0))
            }
        let stepX = (dx.1 * w + dx.0) * c
        let stepY = (dy.1 * w + dy.0) * c
        let start = (origin.1 * w + origin.0) * c
        let storage = PixelStorage<UInt8>(count: outWidth * outHeight * c)
        let (source, out) = (image.storage.base, storage.base)
        var target = 0
        for y in 0..<outHeight {
            var from = start + y * stepY
            for _ in 0..<outWidth {
                for channel in 0..<c { out[target + channel] = source[from + channel] }
                target += c
                from += stepX
            }
        }
        return Image(width: outWidth, height: outHeight, channels: c, storage: storage)
    }
}

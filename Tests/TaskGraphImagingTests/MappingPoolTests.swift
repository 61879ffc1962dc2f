import Testing

@testable import TaskGraphImaging

extension ImagingTests {
    /// Freed image mappings are reused for the next image of about their size. (Sizes no other
    /// test uses, since the pool is the process's.)
    @Suite struct MappingPoolTests {
        @Test func aFreedImagesMappingIsReusedForTheNextOfAboutItsSize() {
            let bytes = 5_000_017
            var address: UnsafeMutablePointer<UInt8>?
            do {
                let first = PixelStorage<UInt8>(count: bytes)
                first.base.update(repeating: 7, count: bytes)
                address = first.base
            }
            // An eighth smaller at most: the same pages, written before they are read.
            let second = PixelStorage<UInt8>(count: bytes - bytes / 9)
            #expect(second.base == address)
            // Nothing else of that size is kept now.
            #expect(MappingPool.take(atLeast: bytes) == nil)
        }

        @Test func aMappingIsNotReusedForAnImageMuchLargerOrSmaller() {
            let bytes = 3_000_029
            var address: UnsafeMutablePointer<UInt8>?
            do {
                let first = PixelStorage<UInt8>(count: bytes)
                first.base[bytes - 1] = 1
                address = first.base
            }
            let larger = PixelStorage<UInt8>(count: bytes + 1)
            let smaller = PixelStorage<UInt8>(count: bytes - bytes / 7)
            #expect(larger.base != address)
            #expect(smaller.base != address)
            let kept = MappingPool.take(atLeast: bytes)
            #expect(kept?.address == address.map { UnsafeMutableRawPointer($0) })
            #expect(kept?.bytes == bytes)
            if let kept { MappingPool.give(kept.address, bytes: kept.bytes) }
        }

        @Test func aMappingLargerThanThePoolIsUnmapped() {
            let bytes = MappingPool.capacity + 4093
            do {
                let image = PixelStorage<UInt8>(count: bytes)
                image.base[0] = 1
            }
            #expect(MappingPool.take(atLeast: bytes) == nil)
        }
    }
}

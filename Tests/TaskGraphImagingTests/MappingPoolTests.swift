import Foundation
import Testing

@testable import TaskGraphImaging

extension ImagingTests {
    /// Freed image mappings are reused for the next image of about their size. Each test has a
    /// pool of its own: what the process's other images free goes to `MappingPool.shared`.
    @Suite struct MappingPoolTests {
        /// Whether the page at `address` is mapped in this process.
        private func isMapped(_ address: UnsafeMutableRawPointer) -> Bool {
            var residency: UInt8 = 0
            return mincore(address, 1, &residency) == 0
        }

        @Test func aFreedImagesMappingIsReusedForTheNextOfAboutItsSize() {
            let pool = MappingPool(capacity: 16 << 20)
            let bytes = 5_000_000
            var address: UnsafeMutablePointer<UInt8>?
            do {
                let first = PixelStorage<UInt8>(count: bytes, pool: pool)
                first.base.update(repeating: 7, count: bytes)
                address = first.base
            }
            // An eighth smaller at most: the same pages, written before they are read.
            let second = PixelStorage<UInt8>(count: bytes - bytes / 9, pool: pool)
            #expect(second.base == address)
            // Nothing else of that size is kept now.
            #expect(pool.take(atLeast: bytes) == nil)
        }

        @Test func aMappingIsNotReusedForAnImageMuchLargerOrSmaller() {
            let pool = MappingPool(capacity: 16 << 20)
            let bytes = 3_000_000
            var address: UnsafeMutablePointer<UInt8>?
            do {
                let first = PixelStorage<UInt8>(count: bytes, pool: pool)
                first.base[bytes - 1] = 1
                address = first.base
            }
            let larger = PixelStorage<UInt8>(count: bytes + 1, pool: pool)
            let smaller = PixelStorage<UInt8>(count: bytes - bytes / 7, pool: pool)
            #expect(larger.base != address)
            #expect(smaller.base != address)
            let kept = pool.take(atLeast: bytes)
            #expect(kept?.address == address.map { UnsafeMutableRawPointer($0) })
            #expect(kept?.bytes == bytes)
            if let kept { pool.give(kept.address, bytes: kept.bytes) }
        }

        @Test func aMappingLargerThanThePoolIsUnmapped() throws {
            let pool = MappingPool(capacity: 2 << 20)
            var address: UnsafeMutableRawPointer?
            do {
                let image = PixelStorage<UInt8>(count: 3 << 20, pool: pool)
                image.base[0] = 1
                address = UnsafeMutableRawPointer(image.base)
                #expect(isMapped(image.base))
            }
            #expect(!isMapped(try #require(address)))
        }

        @Test func theOldestKeptMappingsAreUnmappedToMakeRoom() throws {
            let pool = MappingPool(capacity: 4 << 20)
            var images: [PixelStorage<UInt8>?] = (0..<3).map { _ in PixelStorage<UInt8>(count: 3 << 19, pool: pool) }
            let addresses = images.map { UnsafeMutableRawPointer($0!.base) }
            for index in images.indices { images[index] = nil }
            // 1.5 MiB each, freed first to last: the first no longer fits beside the other two.
            #expect(!isMapped(addresses[0]))
            #expect(isMapped(addresses[1]) && isMapped(addresses[2]))
            #expect(pool.take(atLeast: 3 << 19)?.address == addresses[1])
        }
    }
}

extension Image {
    /// This image with its longer side at most `maxSide` pixels (aspect kept, never enlarged),
    /// by the area averaging of the `resize` operation: for thumbnails.
    /// - Throws: `CancellationError` if the task is cancelled.
    public func shrunk(toMaxSide maxSide: Int) async throws -> Image {
        let size = ResizeKernel.targetSize(width: width, height: height, requestedWidth: nil, requestedHeight: nil, maxSide: maxSide)
        guard size != (width, height) else { return self }
        return try await ResizeKernel.apply(to: self, width: size.width, height: size.height)
    }
}

extension Image {
    /// This image with its longer side at most `maxSide` pixels (aspect kept, never enlarged),
    /// by the area averaging of the `resize` operation: for thumbnails.
    /// - Throws: `CancellationError` if the task is cancelled.
    public func shrunk(toMaxSide maxSide: Int) async throws -> Image {
        try await ResizeKernel.resized(
            self,
            to: ResizeKernel.targetSize(
                width: width, height: height, requestedWidth: nil, requestedHeight: nil, maxSide: maxSide))
    }
}

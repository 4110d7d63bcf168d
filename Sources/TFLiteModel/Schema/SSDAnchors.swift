import Foundation

/// MediaPipe's SSD anchor generation (`SsdAnchorsCalculator`), for writing `DETECTOR_METADATA`
/// into raw SSD models (BlazeFace, MobileNet-SSD without the post-processing op, …).
package struct SSDAnchors: Equatable, Sendable {
    package var numLayers: Int
    package var minScale: Float
    package var maxScale: Float
    package var inputWidth: Int
    package var inputHeight: Int
    package var anchorOffsetX: Float
    package var anchorOffsetY: Float
    package var strides: [Int]
    package var aspectRatios: [Float]
    package var interpolatedScaleAspectRatio: Float
    package var reduceBoxesInLowestLayer: Bool
    package var fixedAnchorSize: Bool

    package init(
        numLayers: Int, minScale: Float, maxScale: Float, inputWidth: Int, inputHeight: Int,
        anchorOffsetX: Float = 0.5, anchorOffsetY: Float = 0.5, strides: [Int], aspectRatios: [Float],
        interpolatedScaleAspectRatio: Float = 1, reduceBoxesInLowestLayer: Bool = false, fixedAnchorSize: Bool = false
    ) {
        self.numLayers = numLayers
        self.minScale = minScale
        self.maxScale = maxScale
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.anchorOffsetX = anchorOffsetX
        self.anchorOffsetY = anchorOffsetY
        self.strides = strides
        self.aspectRatios = aspectRatios
        self.interpolatedScaleAspectRatio = interpolatedScaleAspectRatio
        self.reduceBoxesInLowestLayer = reduceBoxesInLowestLayer
        self.fixedAnchorSize = fixedAnchorSize
    }

    /// MediaPipe's face detection (short range) anchors: 896 fixed-size anchors on a 128×128 input.
    package static let blazeFaceShortRange = SSDAnchors(
        numLayers: 4, minScale: 0.1484375, maxScale: 0.75, inputWidth: 128, inputHeight: 128,
        strides: [8, 16, 16, 16], aspectRatios: [1], fixedAnchorSize: true)

    static func scale(_ minScale: Float, _ maxScale: Float, _ index: Int, _ count: Int) -> Float {
        count == 1
            ? (minScale + maxScale) * 0.5 : minScale + (maxScale - minScale) * 1.0 * Float(index) / (Float(count) - 1.0)
    }

    /// The anchors, in MediaPipe's order.
    package func generate() throws -> [DetectorMetadata.Anchor] {
        guard numLayers == strides.count, numLayers > 0, inputWidth > 0, inputHeight > 0, strides.allSatisfy({ $0 > 0 })
        else {
            throw TFLiteModelError(
                .invalidBuilderInput,
                "SSD anchors need num_layers == strides count (> 0), positive strides and input size.")
        }
        guard numLayers <= 64, inputWidth <= 65536, inputHeight <= 65536, aspectRatios.count <= 64,
            [minScale, maxScale, interpolatedScaleAspectRatio, anchorOffsetX, anchorOffsetY].allSatisfy({ $0.isFinite }
            ),
            aspectRatios.allSatisfy({ $0.isFinite && $0 > 0 })
        else {
            throw TFLiteModelError(
                .invalidBuilderInput,
                "SSD anchors need at most 64 layers and aspect ratios, an input of at most 65536 pixels a side, and "
                    + "finite positive numbers."
            )
        }
        // At most a million anchors (each location has at most aspect ratios + 3 anchors).
        var total = 0
        for stride in strides {
            let cells = ((inputWidth + stride - 1) / stride) * ((inputHeight + stride - 1) / stride)
            total += cells * (aspectRatios.count + 3)
            guard total <= 1_000_000 else {
                throw TFLiteModelError(
                    .invalidBuilderInput, "These SSD anchor options make more than a million anchors.")
            }
        }
        var anchors: [DetectorMetadata.Anchor] = []
        var layer = 0
        while layer < numLayers {
            var heights: [Float] = [], widths: [Float] = [], ratios: [Float] = [], scales: [Float] = []
            var last = layer
            while last < strides.count && strides[last] == strides[layer] {
                let s = Self.scale(minScale, maxScale, last, strides.count)
                if last == 0 && reduceBoxesInLowestLayer {
                    ratios += [1.0, 2.0, 0.5]
                    scales += [0.1, s, s]
                } else {
                    for r in aspectRatios { ratios.append(r); scales.append(s) }
                    if interpolatedScaleAspectRatio > 0 {
                        let next: Float =
                            last == strides.count - 1 ? 1.0 : Self.scale(minScale, maxScale, last + 1, strides.count)
                        scales.append((s * next).squareRoot())
                        ratios.append(interpolatedScaleAspectRatio)
                    }
                }
                last += 1
            }
            for (i, r) in ratios.enumerated() {
                let root = r.squareRoot()
                heights.append(scales[i] / root)
                widths.append(scales[i] * root)
            }
            let stride = strides[layer]
            let fmh = Int(ceil(1.0 * Float(inputHeight) / Float(stride)))
            let fmw = Int(ceil(1.0 * Float(inputWidth) / Float(stride)))
            for y in 0..<fmh {
                for x in 0..<fmw {
                    for id in heights.indices {
                        let xc = (Float(x) + anchorOffsetX) * 1.0 / Float(fmw)
                        let yc = (Float(y) + anchorOffsetY) * 1.0 / Float(fmh)
                        anchors.append(
                            fixedAnchorSize
                                ? DetectorMetadata.Anchor(xCenter: xc, yCenter: yc, width: 1, height: 1)
                                : DetectorMetadata.Anchor(
                                    xCenter: xc, yCenter: yc, width: widths[id], height: heights[id]))
                    }
                }
            }
            layer = last
        }
        return anchors
    }
}

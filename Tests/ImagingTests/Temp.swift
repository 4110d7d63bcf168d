import Testing
import Foundation
@testable import Imaging

@Test func scratchDecode() throws {
    let d = try ImageDecoder.decode(contentsOfFile: "/work/shared/images/dog.jpg")
    FileManager.default.createFile(atPath: "/tmp/our_dog.raw", contents: Data(d.bitmap.pixels))
    let t = try ImagePreprocessor().bytes(d.bitmap, format: TensorFormat(width: 300, height: 300, element: .uint8))
    FileManager.default.createFile(atPath: "/tmp/our_dog_300.raw", contents: Data(t))
}

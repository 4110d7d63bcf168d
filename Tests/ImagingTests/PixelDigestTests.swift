import FileInput
import Foundation
import Imaging
import Testing
import VisionTestSupport

/// The decoded pixels and the model-input tensors of the shared photos, as SHA-256 digests recorded on
/// x86_64: an aarch64 build (or another compiler) that decodes or resizes differently fails here, with
/// the stage named, before any model runs.
@Suite("Pixels and tensors of the shared photos: the digests recorded on x86_64")
struct PixelDigestTests {
    /// (photo, digest of the decoded RGB pixels, of the 224×224 uint8 tensor, of the 320×320 one).
    static let recorded: [(String, String, String, String)] = [
        (
            "dog.jpg", "7d5849a5191fcfe2c7aab17fca58bc1a517935b99654c11c45c31aac6503e2a4",
            "969c1761247682f54a7417205379a61d4a512e6bd8258e6abbdeb258e00dc39d",
            "e98d0f4a12496928a0f03b32ca31cfbef8ca537040582feed858d43dfa1c132a"
        ),
        (
            "cat_720p.jpg", "8ef6f09f698bf48a52b00d7b064a30b13fd8d5b7ddc75d738a970ab56fc4c5a2",
            "10fea14cd4653f636cd673be9154b5a40d73c4eab8ea43a67ed51b04b18b1310",
            "752897c179d1f8e4fbfaa599f6d28bb19330f9e1500fb26d3c291bd693cc3690"
        ),
        (
            "pets.jpg", "ff96a91968d131c2dc1ff5479b3fe12fddb45454625244dee7fefb56fc547999",
            "38186ef82abc5fea84b65cd2077e3ffbdc7bc1622a8617bd437d5c54b61d68b6",
            "c8c25aeac609ae9e83abd5777f3f864e663dc1549fe7042af5ff97dbe3be8c69"
        ),
        (
            "bird.png", "47a5acb532ae48015db71e7cb45fecc7177f3aa63d1c6949ea1156ca20968b49",
            "5c60fe872061dff24a438a6838bd7de98552efa22f57baf9604cebf4aecc49e0",
            "f0ab1ba406793ea4e985307055fd4207e50b2614a2bfe3d557d6a477597bd724"
        ),
        (
            "person.jpg", "9e1cbf4c412d141d2afd3528e3399a830832c6565b3846b883f8c02a14472e07",
            "598965675235d4f4e3f75894479d208d0aa6a22d811e931df139cc670f763911",
            "36f3270c99655060f4878ec26562b53513e9cd1b6509f394e9e5273178be1be5"
        ),
    ]

    static func digest(_ bytes: [UInt8]) throws -> String {
        try bytes.withUnsafeBytes { try SHA256.hex($0) }
    }

    @Test(
        "decoded pixels and 224×224 / 320×320 tensors", .enabled(if: TestAssets.shouldRun), arguments: recorded.map(\.0)
    )
    func digests(photo: String) throws {
        let decoded = try ImageDecoder.decode(contentsOfFile: TestAssets.image(photo))
        let pre = ImagePreprocessor()
        let pixels = try Self.digest(decoded.bitmap.pixels)
        let small = try Self.digest(
            pre.bytes(
                decoded.bitmap, orientation: decoded.orientation,
                format: TensorFormat(width: 224, height: 224, element: .uint8)))
        let large = try Self.digest(
            pre.bytes(
                decoded.bitmap, orientation: decoded.orientation,
                format: TensorFormat(width: 320, height: 320, element: .uint8)))
        let want = try #require(Self.recorded.first { $0.0 == photo })
        #expect(pixels == want.1, "\(photo): decoded pixels")
        #expect(small == want.2, "\(photo): 224×224 tensor")
        #expect(large == want.3, "\(photo): 320×320 tensor")
    }
}

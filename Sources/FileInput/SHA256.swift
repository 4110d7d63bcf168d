import CCrypto

/// SHA-256 digests — pinned digests of downloaded models, tensors and pixels compared with golden
/// digests — computed by OpenSSL's libcrypto (its SHA-NI / AVX2 code where the CPU has it), streamed
/// over the bytes in place: hashing a mapped 1 GB model reads its pages once and copies nothing.
package enum SHA256 {
    /// Bytes handed to the digest per update: the mapping's pages are read in order, a chunk at a time.
    static let chunk = 1 << 20

    /// The lowercase hex digest of the bytes in `buffer`.
    package static func hex(_ buffer: UnsafeRawBufferPointer) throws -> String {
        guard let context = EVP_MD_CTX_new() else { throw failure("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { throw failure("EVP_DigestInit_ex") }
        var offset = 0
        while offset < buffer.count {
            let count = min(chunk, buffer.count - offset)
            guard EVP_DigestUpdate(context, buffer.baseAddress.map { $0 + offset }, count) == 1 else {
                throw failure("EVP_DigestUpdate")
            }
            offset += count
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else {
            throw failure("EVP_DigestFinal_ex")
        }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest.prefix(32) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The lowercase hex digest of `data` (read in place when its storage is contiguous).
    package static func hex<C: Collection>(_ data: C) throws -> String where C.Element == UInt8 {
        if let digest = try data.withContiguousStorageIfAvailable({ try hex(UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        return try Array(data).withUnsafeBytes { try hex($0) }
    }

    /// The lowercase hex digest of a file's bytes — its mapping, or the copy it holds.
    package static func hex(_ file: FileBytes) throws -> String { try hex(file.buffer) }

    private static func failure(_ function: String) -> FileInputError {
        FileInputError(.unreadable, "SHA-256: libcrypto's \(function) failed (out of memory?).")
    }
}

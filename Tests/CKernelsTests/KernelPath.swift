import CKernels

/// The C kernels' path the tests name ("scalar", "vnni-portable", "avx2", "avx512", "vnni", "neon-dot",
/// "neon-dot-portable", "neon", "neon-portable"): the inverse of
/// `vt_path_name`; a name that is none of them gives a path the kernels refuse (-1).
func kernelPath(_ name: String) -> vt_path {
    let all = [
        VT_PATH_SCALAR, VT_PATH_VNNI_PORTABLE, VT_PATH_AVX2, VT_PATH_AVX512, VT_PATH_VNNI, VT_PATH_NEON_DOT,
        VT_PATH_NEON_DOT_PORTABLE, VT_PATH_NEON, VT_PATH_NEON_PORTABLE,
    ]
    return all.first { String(cString: vt_path_name($0)) == name } ?? vt_path(rawValue: 99)
}

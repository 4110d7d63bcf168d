import CKernels
import Testing

/// `vt_path_status`, the one place that says which kernel paths run on this machine: by architecture
/// and by the CPU's features (probed), as every kernel's run answers it.
@Suite("Which kernel paths run here")
struct PathStatusTests {
    static func status(_ name: String) -> Int32 { vt_path_status(kernelPath(name)) }

    @Test("each path's status from this build's architecture and this CPU's features")
    func statuses() {
        let cpu = vt_cpu_features().pointee
        func here(_ yes: Bool) -> Int32 { yes ? 0 : -2 }
        #expect(Self.status("scalar") == 0)
        #expect(Self.status("vnni-portable") == 0)
        #if arch(x86_64)
            let avx512 = cpu.avx512f != 0 && cpu.avx512bw != 0 && cpu.avx512vl != 0
            #expect(Self.status("avx2") == here(cpu.avx2 != 0 && cpu.fma != 0))
            #expect(Self.status("avx512") == here(avx512))
            #expect(Self.status("vnni") == here(avx512 && cpu.avx512vnni != 0))
            #expect(Self.status("neon") == -2)
            #expect(Self.status("neon-dot") == -2)
            #expect(Self.status("neon-portable") == 0)
            #expect(Self.status("neon-dot-portable") == 0)
        #else
            #expect(Self.status("avx2") == -2)
            #expect(Self.status("avx512") == -2)
            #expect(Self.status("vnni") == -2)
            #expect(Self.status("neon") == 0)
            #expect(Self.status("neon-dot") == here(cpu.asimddp != 0))
            #expect(Self.status("neon-portable") == -2)
            #expect(Self.status("neon-dot-portable") == -2)
        #endif
        #expect(vt_path_status(VT_PATH_DEFAULT) == -1)
        #expect(Self.status("no such path") == -1)
    }

    @Test("each kernel's default path is one that runs here")
    func defaultsRun() {
        for path in [vt_conv1x1_path(), vt_qdw_path(), vt_hdw_path(), vt_cdw_path()] {
            #expect(vt_path_status(path) == 0, "\(String(cString: vt_path_name(path)))")
        }
    }
}

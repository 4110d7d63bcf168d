import CKernels
import Foundation
import Testing

/// Which CPUs get XNNPACK's "rndnu16" uint8 GEMM — where our aarch64 kernels, computing "rndnu", must not be
/// the default — read from /proc/cpuinfo texts as the cpuinfo library ranks their cores (the best first).
@Suite("The CPU's uint8 GEMM arithmetic, from /proc/cpuinfo")
struct CpuRankTests {
    /// A /proc/cpuinfo text of processors with these (implementer, part) pairs, as Linux writes it.
    static func cpuinfo(_ cores: [(implementer: Int, part: Int)]) -> String {
        cores.enumerated().map { n, core in
            """
            processor\t: \(n)
            BogoMIPS\t: 48.00
            Features\t: fp asimd evtstrm crc32 cpuid
            CPU implementer\t: 0x\(String(core.implementer, radix: 16))
            CPU architecture: 8
            CPU variant\t: 0x1
            CPU part\t: 0x\(String(core.part, radix: 16, uppercase: false).leftPadded(to: 3))
            CPU revision\t: 0

            """
        }.joined(separator: "\n")
    }

    static func rndnu16(_ text: String) -> Int32 { text.withCString { vt_cpu_qu8_rndnu16($0) } }

    @Test(
        "rndnu16 where the best core is a Cortex-A53, A55 or the original Kryo",
        arguments: [
            ("Raspberry Pi 3 (4 × Cortex-A53)", Array(repeating: (0x41, 0xd03), count: 4), 1),
            ("RK3566 (4 × Cortex-A55)", Array(repeating: (0x41, 0xd05), count: 4), 1),
            ("Snapdragon 820 (Kryo)", [(0x51, 0x211), (0x51, 0x211), (0x51, 0x205), (0x51, 0x205)], 1),
            (
                "RK3588 (A55s listed first, then A76s)",
                Array(repeating: (0x41, 0xd05), count: 4)
                    + Array(repeating: (0x41, 0xd0b), count: 4), 0
            ),
            (
                "Snapdragon 845 (Kryo 385 Silver, then Gold)",
                Array(repeating: (0x51, 0x803), count: 4)
                    + Array(repeating: (0x51, 0x802), count: 4), 0
            ),
            ("Raspberry Pi 4 (Cortex-A72)", Array(repeating: (0x41, 0xd08), count: 4), 0),
            ("Neoverse-N1", Array(repeating: (0x41, 0xd0c), count: 2), 0),
            ("Cortex-A510 + A55 (equal rank: one of them is enough)", [(0x41, 0xd46), (0x41, 0xd05)], 1),
            ("another implementer (Apple)", [(0x61, 0x22)], 0),
        ] as [(String, [(Int, Int)], Int32)])
    func ranks(name: String, cores: [(Int, Int)], expected: Int32) {
        let text = Self.cpuinfo(cores.map { (implementer: $0.0, part: $0.1) })
        #expect(Self.rndnu16(text) == expected, "\(name)")
    }

    @Test("no core described, or fields without values: not rndnu16")
    func malformed() {
        #expect(Self.rndnu16("") == 0)
        #expect(Self.rndnu16("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\n") == 0)
        #expect(Self.rndnu16("CPU implementer\t: \nCPU part\t: 0xd05\n") == 0)
        #expect(Self.rndnu16("CPU part\t: 0xd05\n") == 0)  // no implementer before it
        #expect(Self.rndnu16("CPU implementer\t: 0x41\nCPU part\t: 0xd05") == 1)  // no final newline
        #expect(Self.rndnu16("CPU implementer\t: 0x41\nCPU part\n: 0xd05\n") == 0)  // the colon on another line
    }

    @Test("the emulated CPUs' files used under qemu (scripts/arm64): neither is rndnu16")
    func emulatedFiles() throws {
        let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../scripts/arm64").standardized
        for cpu in ["neoverse-n1", "cortex-a72"] {
            let text = try String(contentsOf: scripts.appendingPathComponent("\(cpu).cpuinfo"), encoding: .utf8)
            #expect(Self.rndnu16(text) == 0, "\(cpu)")
        }
        let a53 = try String(contentsOf: scripts.appendingPathComponent("cortex-a53.cpuinfo"), encoding: .utf8)
        #expect(Self.rndnu16(a53) == 1)
    }

    @Test("the probe reads this machine's /proc/cpuinfo line by line as the text is read whole (aarch64; 0 elsewhere)")
    func probe() throws {
        #if arch(arm64) && os(Linux)
            let text = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
            #expect(text.contains("CPU part"))
            #expect(vt_cpu_features().pointee.qu8_rndnu16 == Self.rndnu16(text))
        #else
            #expect(vt_cpu_features().pointee.qu8_rndnu16 == 0)
        #endif
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

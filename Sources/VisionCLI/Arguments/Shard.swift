import Foundation
import VisionPipeline

/// A deterministic share of the inputs for one worker of many: an item belongs to shard
/// `hash(path) mod count`, so the assignment does not depend on the order or the number of the
/// other items (stable when the folder is listed again, or grows).
struct Shard: Equatable {
    /// This worker's index, from 0.
    let index: Int
    /// How many workers share the inputs.
    let count: Int
    /// Where the shard came from (for the run's summary).
    let origin: String

    /// Whether `item` is this shard's.
    func contains(_ item: InputItem) -> Bool { Int(Self.hash(item.path) % UInt64(count)) == index }

    /// FNV-1a (64-bit) of the path's UTF-8 bytes: stable across runs, machines and Swift versions.
    static func hash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    /// The shard `--shard K/N` names (K from 0), else the scheduler's: Slurm job arrays
    /// (`SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT`, `SLURM_ARRAY_TASK_MIN`) or Kubernetes
    /// Indexed Jobs (`JOB_COMPLETION_INDEX` with `--shard-count N`); nil when there is none.
    static func resolve(flag: String?, count: Int?, environment: [String: String]) throws -> Shard? {
        if let flag {
            let parts = flag.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000 else {
                throw CLIError.usage("--shard takes K/N (K counts from 0, e.g. 0/4 … 3/4), got '\(flag)'")
            }
            guard (0..<n).contains(k) else {
                throw CLIError.usage("--shard \(flag): K must be between 0 and \(n - 1) (K counts from 0)")
            }
            if count != nil { throw CLIError.usage("give --shard K/N or --shard-count N, not both") }
            return Shard(index: k, count: n, origin: "--shard")
        }
        if let id = environment["SLURM_ARRAY_TASK_ID"].flatMap({ Int($0) }) {
            guard let n = count ?? environment["SLURM_ARRAY_TASK_COUNT"].flatMap({ Int($0) }), n >= 1 else {
                throw CLIError.usage(
                    "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not; give --shard-count N")
            }
            let k = id - (environment["SLURM_ARRAY_TASK_MIN"].flatMap { Int($0) } ?? 0)
            guard (0..<n).contains(k) else {
                throw CLIError.usage(
                    "Slurm array task \(id) is outside 0…\(n - 1) (from SLURM_ARRAY_TASK_MIN); submit "
                        + "--array=0-\(n - 1) or give --shard K/N"
                )
            }
            return Shard(index: k, count: n, origin: "Slurm array task \(id)")
        }
        if let k = environment["JOB_COMPLETION_INDEX"].flatMap({ Int($0) }) {
            guard let n = count else {
                throw CLIError.usage("JOB_COMPLETION_INDEX is set: give --shard-count N (the Job's completions)")
            }
            guard (0..<n).contains(k) else {
                throw CLIError.usage("JOB_COMPLETION_INDEX \(k) is outside 0…\(n - 1) for --shard-count \(n)")
            }
            return Shard(index: k, count: n, origin: "Kubernetes completion index \(k)")
        }
        if count != nil {
            throw CLIError.usage(
                "--shard-count needs JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID")
        }
        return nil
    }
}

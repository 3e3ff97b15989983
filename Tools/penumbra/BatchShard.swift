// Which lines of a batch manifest this process renders: `--shard K/N` takes
// the lines whose 0-based index i has i mod N == K, so N processes given
// 0/N ... N-1/N render every line exactly once between them. Without
// --shard, a Kubernetes Indexed Job's JOB_COMPLETION_INDEX (K) and
// JOB_COMPLETIONS (N) are used when both are set (the Job controller sets the
// first; batch-job.json sets the second from its `completions`); otherwise
// every line is this process's. Bad values are usage errors (exit 2).
import ArgumentParser
import Foundation

struct BatchShard: Hashable, Sendable, CustomStringConvertible {
    /// K: this shard, 0 ..< count.
    var index: Int
    /// N: the number of shards, at least 1.
    var count: Int

    /// Every line: shard 0 of 1.
    static let all = BatchShard(index: 0, count: 1)

    /// Whether the line at 0-based `lineIndex` belongs to this shard.
    func owns(lineIndex: Int) -> Bool { lineIndex % count == index }

    var description: String { "\(index)/\(count)" }

    /// Parses "K/N" with 0 <= K < N; the error says what is wrong.
    static func parse(_ text: String, source: String = "--shard") throws -> BatchShard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let n = Int(parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError("\(source) \(text): expected K/N, two whole numbers such as 0/4")
        }
        return try make(index: k, count: n, source: source)
    }

    private static func make(index k: Int, count n: Int, source: String) throws -> BatchShard {
        guard n >= 1 else { throw ValidationError("\(source): N is \(n); the number of shards must be at least 1") }
        guard k >= 0, k < n else { throw ValidationError("\(source): K is \(k); it must be in 0...\(n - 1) (0-based, below N = \(n))") }
        return BatchShard(index: k, count: n)
    }

    /// The shard an Indexed Job's environment names: nil unless JOB_COMPLETION_INDEX and
    /// JOB_COMPLETIONS are both set; their values must be whole numbers with 0 <= K < N.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> BatchShard? {
        guard let k = environment["JOB_COMPLETION_INDEX"], let n = environment["JOB_COMPLETIONS"] else { return nil }
        let source = "JOB_COMPLETION_INDEX=\(k) and JOB_COMPLETIONS=\(n)"
        guard let index = Int(k.trimmingCharacters(in: .whitespaces)), let count = Int(n.trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError("\(source): expected two whole numbers")
        }
        return try make(index: index, count: count, source: source)
    }
}

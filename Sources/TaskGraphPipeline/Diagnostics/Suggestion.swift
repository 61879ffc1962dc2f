/// "Did you mean …?" suggestions by edit distance.
package enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a plausible typo.
    /// A candidate qualifies within a small edit distance, or when one word starts with the other
    /// (`tilt` for `tilt-shift`); the nearest wins, then one sharing the first letter (typos
    /// rarely hit it: `grop` is `group`, not `crop`), then the first candidate in order.
    package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        // Names are short; a huge word is no typo of one, and comparing it would take long.
        guard word.utf8.count <= 200 else { return nil }
        let limit = max(2, word.count / 3)
        let lowered = word.lowercased()
        var best: (candidate: String, rank: Int)?
        for candidate in candidates.sorted() {
            let other = candidate.lowercased()
            let distance = editDistance(lowered, other)
            let isPrefix =
                min(lowered.count, other.count) >= 3
                && (other.hasPrefix(lowered) || lowered.hasPrefix(other))
            let rank = 2 * distance + (other.first == lowered.first ? 0 : 1)
            if distance <= limit || isPrefix, rank < (best?.rank ?? .max) {
                best = (candidate, rank)
            }
        }
        return best?.candidate
    }

    /// `; did you mean 'x'?` or the empty string.
    package static func clause(for word: String, in candidates: some Sequence<String>) -> String {
        closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance, two rows.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let left = Array(lhs.unicodeScalars)
        let right = Array(rhs.unicodeScalars)
        if left.isEmpty { return right.count }
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            for j in stride(from: 1, through: right.count, by: 1) {
                let substitution = previous[j - 1] + (left[i - 1] == right[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[right.count]
    }
}

import NewsDomain

/// The story groups a desk's articles can join, in memory. Each centroid's terms are also held as
/// small integers (interned for the desk), and each term lists the groups whose centroid holds it,
/// so an article is compared only with groups it shares a term with: the others' cosine is 0.
struct ActiveGroups: Sendable {
    struct Group: Sendable {
        var id: Int64
        var title: String
        var eventType: String
        var createdAt: Int64
        var lastAt: Int64
        var articleCount: Int
        var centroid: TermVector
        var isNew: Bool
        /// Whether an article joined it here (a copy only counts): its centroid needs writing.
        var centroidChanged = false
        /// `centroid.terms` interned, in the same order (set by `add`).
        var termIds: [Int] = []

        /// Whether an article published at `time` may join: the group is active within the cluster
        /// window of it, and the article keeps it within `StoriesProjection.storySpan` or falls
        /// inside the time it already spans (which a copy, joining its original's group from up to
        /// three days away, can stretch past the span).
        func admits(_ time: Int64) -> Bool {
            guard lastAt >= time - StoriesProjection.clusterWindow, createdAt <= time + StoriesProjection.clusterWindow else { return false }
            return (createdAt...lastAt).contains(time) || max(lastAt, time) - min(createdAt, time) <= StoriesProjection.storySpan
        }
    }

    private(set) var slots: [Group] = []
    private var slotById: [Int64: Int] = [:]
    private var termIds: [String: Int] = [:]
    private var slotsByTerm: [[Int]] = []
    /// The article being compared's weight of each term, 0 for the rest.
    private var articleWeights: [Double] = []
    private var lastSeen: [Int] = []
    private var comparison = 0

    func slot(of groupId: Int64) -> Int? { slotById[groupId] }

    mutating func add(_ group: Group) {
        var group = group
        group.termIds = group.centroid.terms.map { termId($0) }
        slotById[group.id] = slots.count
        for term in group.termIds { slotsByTerm[term].append(slots.count) }
        slots.append(group)
        lastSeen.append(0)
    }

    /// The group active within the cluster window of `publishedAt` whose centroid is nearest to
    /// `vector` by cosine, at least `StoriesProjection.threshold` (the lowest id among equals). The
    /// sum runs over shared terms in term order, as `TermVector.cosine` adds them.
    mutating func nearest(to vector: TermVector, publishedAt: Int64) -> Int64? {
        comparison += 1
        let terms = vector.terms.map { termId($0) }
        var sharing: [Int] = []
        for (term, weight) in zip(terms, vector.weights) {
            articleWeights[term] = weight
            for slot in slotsByTerm[term] where lastSeen[slot] != comparison {
                lastSeen[slot] = comparison
                sharing.append(slot)
            }
        }
        defer { for term in terms { articleWeights[term] = 0 } }
        var best: (groupId: Int64, similarity: Double)?
        for slot in sharing.sorted(by: { slots[$0].id < slots[$1].id }) {
            guard slots[slot].admits(publishedAt) else { continue }
            var similarity = 0.0
            for (term, weight) in zip(slots[slot].termIds, slots[slot].centroid.weights) where articleWeights[term] != 0 {
                similarity += articleWeights[term] * weight
            }
            if similarity >= StoriesProjection.threshold, similarity > (best?.similarity ?? -1) { best = (slots[slot].id, similarity) }
        }
        return best?.groupId
    }

    /// The group with one more article, `vector`.
    mutating func join(_ slot: Int, vector: TermVector, publishedAt: Int64) {
        let before = slots[slot].termIds
        slots[slot].centroid = slots[slot].centroid.merged(vector, selfCount: slots[slot].articleCount)
        let after = slots[slot].centroid.terms.map { termId($0) }
        for term in Set(before).subtracting(after) { slotsByTerm[term].removeAll { $0 == slot } }
        for term in Set(after).subtracting(before) { slotsByTerm[term].append(slot) }
        slots[slot].termIds = after
        slots[slot].centroidChanged = true
        slots[slot].articleCount += 1
        slots[slot].lastAt = max(slots[slot].lastAt, publishedAt)
        slots[slot].createdAt = min(slots[slot].createdAt, publishedAt)
    }

    /// A copy joins its original's group: counted, its time widened, its centroid unchanged.
    mutating func count(copyIn slot: Int, publishedAt: Int64) {
        slots[slot].articleCount += 1
        slots[slot].lastAt = max(slots[slot].lastAt, publishedAt)
        slots[slot].createdAt = min(slots[slot].createdAt, publishedAt)
    }

    /// The group as written: neither new nor changed since.
    mutating func settle(_ slot: Int) {
        slots[slot].isNew = false
        slots[slot].centroidChanged = false
    }

    private mutating func termId(_ term: String) -> Int {
        if let known = termIds[term] { return known }
        termIds[term] = slotsByTerm.count
        slotsByTerm.append([])
        articleWeights.append(0)
        return slotsByTerm.count - 1
    }
}

/// The plain item-kNN baseline: binary cosine similarity between films (users who rated both over the
/// geometric mean of their rating counts), each film keeping its `neighbours` most similar films; a
/// user's score for a film is the sum of its similarity from every film they rated.
struct ItemKNN {
    let neighbours: [[(index: Int32, similarity: Double)]]
    let index: [Int64: Int]
    let movieIds: [Int64]

    init(userMovies: [Int64: [Int64]], movieIds: [Int64], k: Int = 20) {
        self.movieIds = movieIds
        let index = Dictionary(uniqueKeysWithValues: movieIds.enumerated().map { ($0.element, $0.offset) })
        self.index = index
        let users = userMovies.values.map { $0.compactMap { index[$0].map(Int32.init) } }
        var raters = [[Int32]](repeating: [], count: movieIds.count)
        for (u, movies) in users.enumerated() { for m in movies { raters[Int(m)].append(Int32(u)) } }
        var together = [Int32](repeating: 0, count: movieIds.count)
        var touched: [Int32] = []
        var neighbours: [[(index: Int32, similarity: Double)]] = []
        neighbours.reserveCapacity(movieIds.count)
        for i in 0..<movieIds.count {
            for u in raters[i] {
                for j in users[Int(u)] where Int(j) != i {
                    if together[Int(j)] == 0 { touched.append(j) }
                    together[Int(j)] += 1
                }
            }
            let norm = Double(raters[i].count)
            let similar = touched.map { j in
                (index: j, similarity: Double(together[Int(j)]) / (norm * Double(raters[Int(j)].count)).squareRoot())
            }
            neighbours.append(Array(similar.sorted { $0.similarity != $1.similarity ? $0.similarity > $1.similarity : $0.index < $1.index }.prefix(k)))
            for j in touched { together[Int(j)] = 0 }
            touched.removeAll(keepingCapacity: true)
        }
        self.neighbours = neighbours
    }

    func top(_ rated: [Int64], limit: Int) -> [Int64] {
        var scores = [Double](repeating: 0, count: movieIds.count)
        let own = Set(rated.compactMap { index[$0] })
        // In index order: a Set's order changes with the process's hash seed, and so would near ties.
        for i in own.sorted() { for (j, s) in neighbours[i] { scores[Int(j)] += s } }
        return scores.indices.lazy
            .filter { scores[$0] > 0 && !own.contains($0) }
            .best(limit) { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
            .map { movieIds[$0] }
    }
}

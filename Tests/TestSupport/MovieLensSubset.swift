import Foundation

/// A smaller MovieLens directory cut from the bundled demo: all of its films and links, and its
/// first `ratings` ratings (no tags). Big enough to span several import batches, light enough for
/// a test on a busy two-core machine.
public func movieLensSubset(ratings: Int, in directory: URL) throws -> URL {
    let source = repositoryRoot.appendingPathComponent("demo/ml-latest-small")
    let target = directory.appendingPathComponent("movielens-\(ratings)")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    for file in ["movies.csv", "links.csv"] {
        try FileManager.default.copyItem(at: source.appendingPathComponent(file), to: target.appendingPathComponent(file))
    }
    // The file has CRLF line ends, one grapheme each: split on any newline.
    let lines = try String(contentsOf: source.appendingPathComponent("ratings.csv"), encoding: .utf8).split(whereSeparator: \.isNewline)
    try Data((lines.prefix(ratings + 1).joined(separator: "\n") + "\n").utf8).write(to: target.appendingPathComponent("ratings.csv"))
    return target
}

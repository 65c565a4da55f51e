import Foundation

/// The bundled MovieLens copy that demo mode imports (and the benchmarks load).
public enum DemoDataset {
    public struct NotFound: Error, CustomStringConvertible {
        public var searched: [URL]
        public var description: String {
            "No demo dataset found (looked in \(searched.map(\.path).joined(separator: ", "))); pass --demo-dataset"
        }
    }

    /// `explicit`, else `demo/ml-latest-small` in the working directory, else next to the sources
    /// this binary was built from: the first that holds a `movies.csv`.
    public static func locate(_ explicit: String?) throws -> URL {
        let checkout = URL(fileURLWithPath: #filePath)  // Sources/Products/Nuvie/App/DemoDataset.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            explicit.map { URL(fileURLWithPath: $0) },
            URL(fileURLWithPath: "demo/ml-latest-small"),
            checkout.appendingPathComponent("demo/ml-latest-small"),
        ].compactMap { $0 }
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.appendingPathComponent("movies.csv").path) }) else {
            throw NotFound(searched: candidates)
        }
        return found
    }
}

/// Display names for imported MovieLens users, who come with none: the same id always gets the
/// same name, so a rebuild from the log and a fresh import agree.
enum DemoNames {
    private static let first = [
        "Sarah", "David", "Maya", "Leo", "Aisha", "Tom", "Yuki", "Omar", "Elena", "Noah", "Priya", "Lucas",
        "Zara", "Ben", "Ines", "Kai", "Nora", "Sam", "Lina", "Max", "Ava", "Ravi", "Chloe", "Diego",
        "Hana", "Felix", "Mina", "Jonas", "Iris", "Theo", "Amara", "Ezra", "Sofia", "Malik", "Grace", "Ivan",
    ]
    private static let last = [
        "Chen", "Park", "Okafor", "Rossi", "Novak", "Silva", "Khan", "Larsen", "Moreau", "Tanaka", "Garcia",
        "Kowalski", "Nguyen", "Haddad", "Müller", "Ibrahim", "Costa", "Sato", "Jensen", "Duarte", "Ali",
    ]

    static func name(for userId: Int64) -> String {
        let n = Int(userId)
        return "\(first[n % first.count]) \(last[(n / first.count + n) % last.count])"
    }
}

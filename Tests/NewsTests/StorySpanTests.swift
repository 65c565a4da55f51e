import NewsDomain
@testable import NewsProjections
import Testing

/// The span rule alone (`ActiveGroups.Group.admits`): a story keeps within two days, first article to
/// last; a copy can stretch it further (it joins its original's group from up to three days away),
/// and an article inside what the story already spans still joins then.
@Suite struct StorySpanTests {
    static let day: Int64 = 86_400

    func story(from first: Int64, to last: Int64) -> ActiveGroups.Group {
        ActiveGroups.Group(
            id: 1, title: "A story", eventType: "earnings", createdAt: first, lastAt: last, articleCount: 2,
            centroid: TermVector(terms: [], weights: []), isNew: false
        )
    }

    @Test func anArticleJoinsOnlyWithinTwoDaysOfTheStorysFirstAndLast() {
        let story = story(from: 0, to: Self.day)
        #expect(story.admits(2 * Self.day))
        #expect(!story.admits(2 * Self.day + 1))
        #expect(story.admits(-Self.day))
        #expect(!story.admits(-Self.day - 1))
    }

    @Test func aStoryStretchedByALateCopyStillTakesTheArticlesInsideIt() {
        let stretched = story(from: 0, to: 3 * Self.day)
        #expect(stretched.admits(Self.day))
        #expect(!stretched.admits(3 * Self.day + 1))
    }

    /// The probe's story listed three days after the date asked for: a copy published before its
    /// story's first article now moves the story's start, as a later one moves its end.
    @Test func aCopyWidensItsStorysTimeBothWays() {
        var groups = ActiveGroups()
        groups.add(story(from: Self.day, to: Self.day))
        groups.count(copyIn: 0, publishedAt: 0)
        groups.count(copyIn: 0, publishedAt: 2 * Self.day)
        #expect(groups.slots[0].createdAt == 0 && groups.slots[0].lastAt == 2 * Self.day && groups.slots[0].articleCount == 4)
    }
}

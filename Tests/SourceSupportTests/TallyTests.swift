import SourceSupport
import Testing

/// The one tally the sources share (iTunes, audio files): most common value, ties, bound.
@Suite struct TallyTests {
    @Test func mostCommonValueWinsAndTiesGoToTheFirstSeen() {
        var tally = Tally()
        for value in ["Jazz", "Rock", "", "Rock", "Jazz"] { tally.add(value) }
        #expect(tally.mostCommon == "Jazz")
        #expect(tally.total == 4)
        #expect(Tally().mostCommon == "")
    }

    @Test func countsAtMostCapacityDistinctValues() {
        var tally = Tally()
        for index in 0..<Tally.capacity { tally.add("genre \(index)") }
        for _ in 0..<3 { tally.add("late") }
        #expect(tally.seen.count == Tally.capacity)
        #expect(tally.mostCommon == "genre 0")
    }
}

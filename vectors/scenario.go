package vectors

import "fmt"

// The generated and targeted scenarios the certifier plays through every
// encoder, by name: each a list of stories that several cases examine.
const (
	ScenarioAdversarial   = "adversarial"    // GenerateStories plus sequences aimed at the table's corners
	ScenarioEntrySize     = "entry-size"     // §4.1 sizes that differ by one octet of overhead
	ScenarioSizes         = "size-updates"   // §4.2 settings going down, up, and several times
	ScenarioEmptyBlock    = "empty-block"    // §4.2 a setting change followed by a block without fields
	ScenarioEvictResize   = "evict-resize"   // §4.3 a table emptied by a smaller setting
	ScenarioEvictInsert   = "evict-insert"   // §4.4 an entry evicting exactly two others
	ScenarioGiant         = "giant"          // §4.4 entries larger than the table
	ScenarioOctets        = "octets"         // §5.2 all 256 octets in values
	ScenarioHuffmanOctets = "huffman-octets" // §5.2, App. B each octet where Huffman is shorter
	ScenarioSpec          = "spec-coverage"  // App. A every static entry and name; §5.1 prefix boundaries
	ScenarioSensitive     = "sensitive"      // §7.1.3 fields marked sensitive
	ScenarioCredentials   = "credentials"    // §7.1.3 authorization, proxy-authorization and short cookies
)

// Scenario returns the stories of the named scenario, each named in Path
// for reports, and whether the name is one of the scenarios above. seed
// and adversarial are GenerateStories' arguments for ScenarioAdversarial;
// utf8Only leaves out of the octet scenarios the octets that valid UTF-8
// cannot carry, for encoders that take only UTF-8.
func Scenario(name string, seed int64, adversarial int, utf8Only bool) ([]Story, bool) {
	var stories []Story
	switch name {
	case ScenarioAdversarial:
		for i, s := range GenerateStories(seed, adversarial) {
			st := *s
			st.Path = fmt.Sprintf("generated-%02d", i)
			stories = append(stories, st)
		}
		stories = append(stories, ownAdversarial(seed)...)
	case ScenarioEntrySize:
		stories = entrySizeStories()
	case ScenarioSizes:
		stories = sizeStories()
	case ScenarioEmptyBlock:
		stories = emptyBlockStories()
	case ScenarioEvictResize:
		stories = evictResizeStories()
	case ScenarioEvictInsert:
		stories = evictInsertStories()
	case ScenarioGiant:
		stories = giantStories()
	case ScenarioOctets:
		stories = octetStories(utf8Only)
	case ScenarioHuffmanOctets:
		stories = huffmanOctetStories(utf8Only)
	case ScenarioSpec:
		stories = specCoverageStories()
	case ScenarioSensitive:
		stories = sensitiveStories()
	case ScenarioCredentials:
		stories = credentialStories()
	default:
		return nil, false
	}
	return stories, true
}

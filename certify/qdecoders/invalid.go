package qdecoders

import "github.com/hpackcert/hpackcert/certify/qpack"

// The stories of the cases that judge the decoder stream or a refusal:
// valid steps first, then, for a refusal, the step the strict decoder
// refuses, which ends the story.

// cancelStories reset streams whose section is blocked, or was decoded
// with dynamic references (§2.2.2.2, §4.4.2).
func cancelStories() []story {
	ins := setCapacity(4096).insertLiteral("x-h", "1")
	return []story{
		newStory("cancel-blocked", withTable).enc(setCapacity(4096)).
			section(0, prefix(1, 1, 128).dynamic(0)).cancel(0).enc(octets(nil).insertLiteral("x-h", "1")).done(),
		newStory("cancel-referenced", withTable).enc(ins).
			section(0, prefix(1, 1, 128).dynamic(0)).cancel(0).done(),
	}
}

// unreferencedStories insert entries no section references: only an
// Insert Count Increment tells the encoder they arrived (§2.2.2.3).
func unreferencedStories() []story {
	return []story{
		newStory("inserts-only", withTable).enc(setCapacity(4096).insertLiteral("x-i", "1").insertStatic(31, "gzip")).
			section(0, prefix(0, 0, 128).static(17)).done(),
		newStory("inserts-after-ack", withTable).enc(setCapacity(4096).insertLiteral("x-i", "1")).
			section(0, prefix(1, 1, 128).dynamic(0)).enc(octets(nil).insertLiteral("x-j", "2")).done(),
	}
}

// refusalStories are the stories of each refusal case, by id.
func refusalStories() map[string][]story {
	ins := func() octets { return setCapacity(4096).insertLiteral("x-k", "1") }
	tiny := qpack.Settings{MaxTableCapacity: 64, BlockedStreams: 4} // MaxEntries 2
	one := qpack.Settings{MaxTableCapacity: 4096, BlockedStreams: 1}
	huff := func(name string, code ...byte) story {
		return newStory(name, staticOnly).section(0, prefix(0, 0, 0).static(17).int(0x50, 4, 1).rawHuffman(0, 7, code)).done()
	}
	return map[string][]story{
		"qdec/2.1.2/1": {
			newStory("blocked-over-1", one).enc(setCapacity(4096)).
				section(0, prefix(1, 1, 128).dynamic(0)).section(4, prefix(2, 2, 128).dynamic(0)).done(),
			newStory("blocked-over-0", qpack.Settings{MaxTableCapacity: 4096}).enc(setCapacity(4096)).
				section(0, prefix(1, 1, 128).dynamic(0)).done(),
		},
		"qdec/2.2.3/1": {
			newStory("ref-evicted", tiny).enc(setCapacity(64).insertLiteral("x-l", "1").insertLiteral("x-m", "2")).
				section(0, prefix(2, 2, 2).dynamic(0)).section(4, prefix(2, 2, 2).dynamic(1)).done(),
			newStory("ref-at-count", withTable).enc(ins().insertLiteral("x-n", "2")).
				section(0, prefix(1, 1, 128).postBase(0)).done(),
		},
		"qdec/2.2.3/2": {
			newStory("duplicate-evicted", tiny).enc(setCapacity(64).insertLiteral("x-l", "1").insertLiteral("x-m", "2")).
				enc(octets(nil).duplicate(1)).done(),
			newStory("name-never-inserted", withTable).enc(ins()).enc(octets(nil).insertDynamic(1, "v")).done(),
		},
		"qdec/3.1/1": {
			newStory("static-99", staticOnly).section(0, prefix(0, 0, 0).static(17).static(99)).done(),
			newStory("static-name-1000", staticOnly).section(0, prefix(0, 0, 0).staticName(1000, "v", false)).done(),
		},
		"qdec/3.1/2": {
			newStory("insert-static-99", withTable).enc(setCapacity(4096).insertStatic(99, "v")).done(),
		},
		"qdec/3.2.2/1": {
			newStory("insert-before-capacity", withTable).enc(octets(nil).insertLiteral("x-o", "1")).done(),
			newStory("insert-too-large", qpack.Settings{MaxTableCapacity: 4096}).enc(setCapacity(40).insertLiteral("x-o", "12345678")).done(),
		},
		"qdec/4.1.1/1": {
			newStory("section-int-2^62", staticOnly).section(0, prefix(0, 0, 0).static(1<<62)).done(),
			newStory("section-int-70-bits", staticOnly).section(0, append(prefix(0, 0, 0), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f)).done(),
			newStory("encoder-int-2^62", withTable).enc(setCapacity(1 << 62)).done(),
		},
		"qdec/4.1.2/1": {
			huff("huffman-long-padding", 0x1f, 0xff),    // 'a' (00011) and 11 bits of padding
			huff("huffman-zero-padding", 0x18),          // 'a' and 000 of padding
			huff("huffman-eos", 0xff, 0xff, 0xff, 0xff), // EOS (30 ones) and 2 bits of padding
		},
		"qdec/4.3.1/1": {
			newStory("capacity-over-max", withTable).enc(setCapacity(4097)).done(),
			newStory("capacity-over-0", staticOnly).enc(setCapacity(1)).done(),
		},
		"qdec/4.5.1.1/1": {
			newStory("count-no-table", staticOnly).section(0, append(rawPrefix(1, false, 0), octets(nil).static(17)...)).done(),
			newStory("count-over-range", tiny).enc(setCapacity(64).insertLiteral("x-p", "1")).
				section(0, append(rawPrefix(5, false, 0), octets(nil).dynamic(0)...)).done(),
			newStory("count-past-inserts", tiny).section(0, append(rawPrefix(4, false, 0), octets(nil).static(17)...)).done(),
		},
		"qdec/4.5.1.2/1": {
			newStory("base-negative-0", staticOnly).section(0, append(rawPrefix(0, true, 0), octets(nil).static(17)...)).done(),
			newStory("base-negative-1", withTable).enc(ins()).
				section(0, append(rawPrefix(2, true, 1), octets(nil).postBase(0)...)).done(),
		},
		"qdec/7.3/1": {
			bombStory("bomb-static", staticOnly, prefix(0, 0, 0), octets(nil).static(17)),
			newStoryBomb(),
		},
	}
}

// bombStory is a section of 20,000 copies of line under a
// SETTINGS_MAX_FIELD_SECTION_SIZE of 4096.
func bombStory(name string, set qpack.Settings, pf, line octets) story {
	set.MaxFieldSectionSize = 4096
	data := append([]byte(nil), pf...)
	for range 20000 {
		data = append(data, line...)
	}
	return newStory(name, set).section(0, data).done()
}

// newStoryBomb references a 4000-octet entry 20,000 times: an 80 MB
// header list from a 20 KB section, under a limit of 4096.
func newStoryBomb() story {
	big := make([]byte, 4000)
	for i := range big {
		big[i] = 'a' + byte(i%26)
	}
	s := bombStory("bomb-dynamic", withTable, prefix(1, 1, 128), octets(nil).dynamic(0))
	s.steps = append([]step{{kind: encoderStep, data: setCapacity(4096).insertLiteral("x-q", string(big))}}, s.steps...)
	return s
}

package certify

import "github.com/hpackcert/hpackcert/vectors"

// Options configures a certification run. The zero value runs every case
// on the full traffic stories.
type Options struct {
	// Cases selects cases by id prefix; none selects every case.
	Cases []string
	// Strict turns non-strict grades into failures.
	Strict bool
	// ExpectFail lists known failures that do not fail the run: each entry
	// is a case id, or "ENCODER CASE" for one encoder, "ENCODER
	// breakdown" for a known breakdown (TargetInfo.BreakdownExpected), or
	// "ENCODER nothing-judged" for a target known to give no case anything
	// to judge (TargetInfo.NothingJudgedExpected; see ReadExpectations).
	ExpectFail []string
	// Declared lists the cases the user declares an encoder cannot be
	// graded on (its library cannot express them): a MUST case left
	// unsupported for an encoder the certifier drives fails the run
	// unless a declaration covers it (Report.Ungraded). A declared case
	// is reported as declared, never as a pass.
	Declared []Declaration
	// Jobs is how many targets driven out of process (hpack-stdio
	// programs) or recorded are certified at once; 0 or 1 certifies one
	// after the other. Targets in process are always certified alone, so
	// that their allocation counts (enc/7.3/2) see no other work. The
	// report is the same whatever Jobs is: each target is graded on its
	// own, and reported in the order given.
	Jobs int
	// TestCaseDir, when set, is where the traffic stories are read from:
	// an hpack-test-case directory holding raw-data/, or a directory of
	// story files itself. Empty means the 32 raw-data stories of
	// hpack-test-case embedded in package vectors (vectors.RawData), the
	// same real traffic wherever the certifier runs.
	TestCaseDir string
	// TrafficStories and TrafficBlocks, when positive, cut the traffic
	// stories to that many stories of at most that many blocks (for quick
	// runs, such as tests under -race).
	TrafficStories, TrafficBlocks int
	// Adversarial is the number of stories taken from
	// vectors.GenerateStories; 0 means 16.
	Adversarial int
	// Seed seeds the generated stories.
	Seed int64
	// AllocRuns is the number of runs enc/7.3/2 averages allocations
	// over; 0 means 100.
	AllocRuns int
	// MaxBlockSize is the largest header block, in octets, an encoder may
	// write; a larger one is a breakdown of the encoder, graded fail. 0
	// means DefaultMaxBlockSize (1 MiB).
	MaxBlockSize int
	// MaxHeaderListSize is the largest header list, counted as name +
	// value + 32 octets per field, a block may decode to in any oracle
	// (a block whose fields sent are larger is allowed their size); past
	// it the oracles stop decoding, the HPACK-bomb defence of RFC 7541
	// §7.3. 0 means DefaultMaxHeaderListSize (64 KiB).
	MaxHeaderListSize int
	// Replay, when set, replaces the stories of every scenario: each
	// selected case judges exactly these blocks. Result.Replay of a failed
	// case, read back, replays that case's failure (hpackcert repro).
	Replay []*vectors.Story
	// MaxStoryFileSize is the largest story file read, in octets; a larger
	// one is an error before it is read. 0 means
	// vectors.DefaultMaxStoryFileSize (256 MiB).
	MaxStoryFileSize int64
}

func (o *Options) maxStoryFileSize() int64 {
	if o.MaxStoryFileSize > 0 {
		return o.MaxStoryFileSize
	}
	return vectors.DefaultMaxStoryFileSize
}

func (o *Options) limits() limits {
	lim := defaultLimits
	if o.MaxBlockSize > 0 {
		lim.maxBlock = o.MaxBlockSize
	}
	if o.MaxHeaderListSize > 0 {
		lim.maxList = o.MaxHeaderListSize
	}
	return lim
}

func (o *Options) adversarial() int {
	if o.Adversarial > 0 {
		return o.Adversarial
	}
	return 16
}

func (o *Options) allocRuns() int {
	if o.AllocRuns > 0 {
		return o.AllocRuns
	}
	return 100
}

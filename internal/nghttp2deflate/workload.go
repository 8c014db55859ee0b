//go:build nghttp2

package nghttp2deflate

// #include "deflate.h"
import "C"

import (
	"fmt"
	"math"
	"runtime"
	"unsafe"
)

// Block is one header block of a workload.
type Block struct {
	// TableSizes are the SETTINGS_HEADER_TABLE_SIZE values acknowledged
	// since the previous block, applied in order with ChangeTableSize
	// before the block is encoded.
	TableSizes []uint32
	Fields     []Field
}

// WorkloadConfig says how EncodeWorkload uses deflaters.
type WorkloadConfig struct {
	// MaxDeflateTableSize is the argument of New for every deflater of
	// the run; 0 means 4096.
	MaxDeflateTableSize uint32
	// Reuse keeps one deflater for the whole run, every story of every
	// pass, as one long-lived connection would. Otherwise each story of
	// each pass gets a fresh deflater, created before its first block and
	// deleted after its last, and that setup is part of the measured work.
	Reuse bool
}

// Workload is a set of stories (sequences of blocks) copied into C memory
// once, with nghttp2's nghttp2_nv arrays prepared, for EncodeWorkload.
type Workload struct {
	c        *C.hcdef_workload
	cleanup  runtime.Cleanup
	blocks   int
	rawBytes int
}

// NewWorkload copies stories into C memory. The caller may change or drop
// stories afterwards.
func NewWorkload(stories [][]Block, cfg WorkloadConfig) (*Workload, error) {
	var dataLen, fields, sizes, blocks, outCap int
	for s, story := range stories {
		for b, block := range story {
			for i, f := range block.Fields {
				if len(f.Name) > math.MaxUint32 || len(f.Value) > math.MaxUint32 {
					return nil, fmt.Errorf("nghttp2deflate: story %d, block %d, field %d: name of %d bytes or value of %d bytes is over 4 GiB",
						s, b, i, len(f.Name), len(f.Value))
				}
				dataLen += len(f.Name) + len(f.Value)
			}
			fields += len(block.Fields)
			sizes += len(block.TableSizes)
			outCap = max(outCap, MaxBlockLen(block.Fields))
		}
		blocks += len(story)
	}
	c := C.hcdef_workload_new(C.size_t(dataLen), C.size_t(fields), C.size_t(sizes), C.size_t(blocks), C.size_t(len(stories)), C.size_t(outCap))
	if c == nil {
		return nil, fmt.Errorf("nghttp2deflate: out of C memory for a workload of %d blocks, %d bytes of names and values", blocks, dataLen)
	}
	c.max_table = 4096
	if cfg.MaxDeflateTableSize != 0 {
		c.max_table = C.size_t(cfg.MaxDeflateTableSize)
	}
	if cfg.Reuse {
		c.reuse = 1
	}

	// The arrays are C memory, filled here through slices over it; the
	// pointers stored in nva point into C memory too.
	data := unsafe.Slice((*byte)(unsafe.Pointer(c.data)), dataLen)
	nva := unsafe.Slice(c.nva, fields)
	sizeArray := unsafe.Slice(c.sizes, sizes)
	blockArray := unsafe.Slice(c.blocks, blocks)
	storyEnds := unsafe.Slice(c.story_ends, len(stories))
	var dataOff, nv, size, b int
	for s, story := range stories {
		for _, block := range story {
			blockArray[b] = C.hcdef_wblock{
				first_nv:   C.size_t(nv),
				nvlen:      C.size_t(len(block.Fields)),
				first_size: C.size_t(size),
				nsizes:     C.size_t(len(block.TableSizes)),
			}
			for _, n := range block.TableSizes {
				sizeArray[size] = C.uint32_t(n)
				size++
			}
			for _, f := range block.Fields {
				nva[nv] = C.nghttp2_nv{
					name:     (*C.uint8_t)(unsafe.Add(unsafe.Pointer(c.data), dataOff)),
					value:    (*C.uint8_t)(unsafe.Add(unsafe.Pointer(c.data), dataOff+len(f.Name))),
					namelen:  C.size_t(len(f.Name)),
					valuelen: C.size_t(len(f.Value)),
				}
				if f.Sensitive {
					nva[nv].flags = C.NGHTTP2_NV_FLAG_NO_INDEX
				}
				dataOff += copy(data[dataOff:], f.Name)
				dataOff += copy(data[dataOff:], f.Value)
				nv++
			}
			b++
		}
		storyEnds[s] = C.size_t(b)
	}

	w := &Workload{c: c, blocks: blocks, rawBytes: dataLen}
	w.cleanup = runtime.AddCleanup(w, func(c *C.hcdef_workload) { C.hcdef_workload_del(c) }, c)
	return w, nil
}

// Blocks returns the number of blocks in one pass over the workload.
func (w *Workload) Blocks() int { return w.blocks }

// RawBytes returns the bytes of names and values in one pass over the
// workload, the figure for testing.B.SetBytes.
func (w *Workload) RawBytes() int { return w.rawBytes }

// Close frees the workload's C memory. It is safe to call more than once
// and always returns nil.
func (w *Workload) Close() error {
	if w.c == nil {
		return nil
	}
	w.cleanup.Stop()
	C.hcdef_workload_del(w.c)
	w.c = nil
	return nil
}

// EncodeWorkload encodes every block of w, story after story, passes
// times over, inside one cgo call, and returns the wire bytes produced by
// all passes together. Each block is encoded into the same C buffer with
// nghttp2_hd_deflate_hd, after its TableSizes; the deflaters are fresh per
// story or kept for the run as w's WorkloadConfig.Reuse says.
func EncodeWorkload(w *Workload, passes int) (wireBytes int, err error) {
	if w.c == nil {
		return 0, ErrClosed
	}
	if passes < 0 {
		return 0, fmt.Errorf("nghttp2deflate: EncodeWorkload: %d passes; want 0 or more", passes)
	}
	rv := C.hcdef_workload_run(w.c, C.size_t(passes))
	wireBytes = int(w.c.wire)
	if rv != 0 {
		err = fmt.Errorf("nghttp2deflate: story %d, block %d: %w", w.c.failed_story, w.c.failed_block, newError("EncodeWorkload", int(rv)))
	}
	runtime.KeepAlive(w)
	return wireBytes, err
}

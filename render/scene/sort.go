package scene

// sortKeys sorts face keys ascending and returns them; the result may live
// in *tmp's storage, in which case *tmp takes the other buffer (neither is
// allocated again once grown).
//
// A face key is the float32 bits of a squared distance above the face's
// index, and the faces are queued in index order, so sorting by the upper
// 32 bits alone with a stable sort gives the same order as sorting the
// whole keys. A least-significant-digit radix sort does that in four
// passes of one byte each, a pass skipped when every key has the same byte
// there (the distances of one frame often share their top byte). On one
// frame's two thousand keys it runs less than half the instructions of
// slices.Sort: four times faster in WebAssembly, about as fast natively
// (BenchmarkSortFaces).
func sortKeys(keys []uint64, tmp *[]uint64) []uint64 {
	if len(keys) < 64 {
		insertionSort(keys)
		return keys
	}
	var counts [4][256]int
	for _, k := range keys {
		counts[0][byte(k>>32)]++
		counts[1][byte(k>>40)]++
		counts[2][byte(k>>48)]++
		counts[3][byte(k>>56)]++
	}
	if cap(*tmp) < len(keys) {
		// As roomy as keys: the two trade places, and the caller's
		// reservation must hold for whichever it gets back.
		*tmp = make([]uint64, len(keys), cap(keys))
	}
	src, dst := keys, (*tmp)[:len(keys)]
	for pass := range counts {
		c := &counts[pass]
		shift := 32 + 8*uint(pass)
		if c[byte(src[0]>>shift)] == len(src) {
			continue // every key has this byte: the pass would not move one
		}
		pos := 0
		for d := range c {
			pos, c[d] = pos+c[d], pos
		}
		for _, k := range src {
			d := byte(k >> shift)
			dst[c[d]] = k
			c[d]++
		}
		src, dst = dst, src
	}
	*tmp = dst
	return src
}

// insertionSort sorts a few keys in place.
func insertionSort(keys []uint64) {
	for i := 1; i < len(keys); i++ {
		k := keys[i]
		j := i
		for ; j > 0 && keys[j-1] > k; j-- {
			keys[j] = keys[j-1]
		}
		keys[j] = k
	}
}

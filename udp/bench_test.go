package udp

import (
	"crypto/rand"
	"fmt"
	"testing"

	"netcubes/wire"
)

// The cost of sealing: per datagram, seal (header + ChaCha20-Poly1305)
// and open (replay check + authentication + decryption), for the sizes
// netcubes sends (the katamari script, 10 s): a 23-byte ack, a compressed
// 901-cube snapshot (200 bytes on average at the default level), a state
// sync packet (463), the diagnostics (9 kB) and the uncompressed 901-cube
// snapshot (36,156). Overhead is bytes added to every datagram (Overhead:
// 14-byte header, 16-byte tag).
var benchSizes = []int{23, 200, 463, 9000, 36156}

func benchKeys() (toLeft, toRight [keyBytes]byte) {
	for i := range toLeft {
		toLeft[i], toRight[i] = byte(i), byte(255-i)
	}
	return
}

func BenchmarkSeal(b *testing.B) {
	k, _ := benchKeys()
	a := newAEAD(k[:])
	w := wire.NewWriteStream(nil)
	buf := make([]byte, MaxDatagram)
	var nc nonceBuf
	for _, n := range benchSizes {
		body := make([]byte, n)
		b.Run(fmt.Sprintf("%dB", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n))
			seq := uint64(0)
			for b.Loop() {
				seq++
				if seal(w, &nc, buf, Header{Kind: KindData, Sequence: seq}, a, nil, body) == nil {
					b.Fatal("seal failed")
				}
			}
			b.ReportMetric(Overhead, "overhead-bytes/datagram")
			b.ReportMetric(100*float64(Overhead)/float64(n), "overhead-%")
		})
	}
}

func BenchmarkOpen(b *testing.B) {
	k, _ := benchKeys()
	a := newAEAD(k[:])
	w := wire.NewWriteStream(nil)
	buf := make([]byte, MaxDatagram)
	r := wire.NewReadStream(nil)
	var nc nonceBuf
	for _, n := range benchSizes {
		body := make([]byte, n)
		pkt := append([]byte(nil), seal(w, &nc, buf, Header{Kind: KindData, Sequence: 1}, a, nil, body)...)
		work := make([]byte, len(pkt))
		b.Run(fmt.Sprintf("%dB", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n))
			for b.Loop() {
				// Opening decrypts in place: start from the sealed bytes.
				copy(work, pkt)
				var h Header
				r.Reset(work)
				var win replayWindow
				if h.Serialize(r) != nil || !win.fresh(h.Sequence) {
					b.Fatal("header")
				}
				if _, err := open(a, &nc, h.Sequence, work, 0); err != nil {
					b.Fatal(err)
				}
				win.mark(h.Sequence)
			}
		})
	}
}

// BenchmarkHandshakeCrypto is the left's key work for one right joining:
// an X25519 key pair for the challenge, then the exchange and the two
// session keys for the response (the rate limit ChallengesPerSecond bounds
// how often a flood can make it do the first).
func BenchmarkHandshakeCrypto(b *testing.B) {
	right, err := x25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		left, err := x25519.GenerateKey(rand.Reader)
		if err != nil {
			b.Fatal(err)
		}
		shared, err := left.ECDH(right.PublicKey())
		if err != nil {
			b.Fatal(err)
		}
		sessionKeys(testToken, shared, right.PublicKey().Bytes(), left.PublicKey().Bytes())
	}
}

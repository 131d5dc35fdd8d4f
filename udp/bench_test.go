package udp

import (
	"crypto/rand"
	"fmt"
	"net/netip"
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

// BenchmarkConnect is what one connect request costs the left, by how it
// ends: dropped by its source's budget, stale, a replayed key out of
// budget (each from a new source), failing authentication (a wrong token,
// each from a new source; the denies' own limit keeps them unsent), and
// answered (a new key each time: the challenge with its X25519 key pair).
// The first three end before any key work.
func BenchmarkConnect(b *testing.B) {
	l, err := Listen("127.0.0.1:0", testToken, DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	sink, err := Dial("127.0.0.1:9", testToken, DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	defer sink.Close()
	// connect builds a genuine connect of a new key, stamped now (or
	// stampOff ms off), sealed with tok.
	connect := func(tok Token, stampOff int64) []byte {
		sink.token = tok
		sink.started = true
		sink.attempt()
		clear := append([]byte(nil), sink.pub...)
		clear = append(clear, make([]byte, stampBytes)...)
		stamp := l.cfg.Clock() + stampOff
		for i := range stampBytes {
			clear[keyBytes+i] = byte(stamp >> (8 * i))
		}
		var pad [connectPad]byte
		return append([]byte(nil), seal(sink.w, &sink.nc, sink.buf, Header{Kind: KindConnect, Sequence: 1}, sink.hsToLeft, clear, pad[:])...)
	}
	wrong := testToken
	wrong[0] ^= 1
	src := func(i int) netip.AddrPort {
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}), uint16(1024+i%60000))
	}
	l.Poll(1)
	replayed := connect(testToken, 0)
	l.handle(datagram{from: src(-1), data: append([]byte(nil), replayed...)}) // its key is now known
	replayedAt := l.keys.find(replayed[HeaderBytes : HeaderBytes+keyBytes])
	cases := []struct {
		name  string
		data  func(i int) []byte
		from  func(i int) netip.AddrPort
		fresh bool // a new connect each time (built outside the timer)
		still bool // the clock stands still (the source's budget stays spent)
	}{
		{"source budget", func(int) []byte { return replayed }, func(int) netip.AddrPort { return src(-1) }, false, true},
		{"stale", func(int) []byte { return connect(testToken, -120_000) }, src, false, false},
		{"replayed key", func(int) []byte { return replayed }, src, false, false},
		{"wrong token", func(int) []byte { return connect(wrong, 0) }, src, false, false},
		{"answered", func(int) []byte { return connect(testToken, 0) }, src, true, false},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			proto := c.data(0)
			buf := make([]byte, len(proto))
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				i++
				if c.fresh {
					b.StopTimer()
					proto = c.data(i)
					l.challs.tokens = 1e9
					b.StartTimer()
				}
				// A second between requests: every budget refills, but the
				// replayed key's (spent) and the denies' (kept unsent:
				// this measures the left, not the socket).
				if !c.still {
					l.now += wire.TicksPerSecond
				}
				l.keys.keys[replayedAt].b.tokens, l.keys.keys[replayedAt].b.at = 0, l.now
				l.denies.tokens, l.denies.at = 0, l.now
				copy(buf, proto)
				l.handle(datagram{from: c.from(i), data: buf})
			}
		})
	}
}

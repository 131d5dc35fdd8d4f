//go:build !js

package room

import (
	"bytes"
	"net/netip"
	"strings"
	"testing"

	"netcubes/udp"
	"netcubes/wire"
)

// An offer as Chromium sends it for one unordered data channel.
const seedOffer = "v=0\r\no=- 4611731400430051336 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n" +
	"a=group:BUNDLE 0\r\na=extmap-allow-mixed\r\na=msid-semantic: WMS\r\n" +
	"m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\nc=IN IP4 0.0.0.0\r\n" +
	"a=candidate:1 1 udp 2113937151 127.0.0.1 54321 typ host generation 0\r\n" +
	"a=ice-ufrag:abcd\r\na=ice-pwd:abcdefghijklmnopqrstuvwx\r\na=ice-options:trickle\r\n" +
	"a=fingerprint:sha-256 00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF\r\n" +
	"a=setup:actpass\r\na=mid:0\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n"

func seedJoin() string {
	return `{"token":"00112233445566778899aabbccddeeff","sdp":` + quote(seedOffer) + `}`
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r", `\r`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func TestReadJoinSeed(t *testing.T) {
	if _, _, err := ReadJoin(strings.NewReader(seedJoin())); err != nil {
		t.Fatalf("a browser's offer refused: %v", err)
	}
	for _, bad := range []string{
		strings.Replace(seedJoin(), "webrtc-datachannel", "96", 1),                   // media, not a data channel
		strings.Replace(seedJoin(), `a=ice-pwd:abcdefghijklmnopqrstuvwx\r\n`, "", 1), // no credentials
		strings.Replace(seedJoin(), `"token":"0011`, `"token":"zz11`, 1),
		seedJoin() + "{}",
		strings.Replace(seedJoin(), `{"token"`, `{"x":1,"token"`, 1),
	} {
		if _, _, err := ReadJoin(strings.NewReader(bad)); err == nil {
			t.Errorf("taken: %.120q", bad)
		}
	}
}

// FuzzReadJoin: a join request of any bytes is refused or taken, never a
// panic, and one taken has a data channel's offer.
func FuzzReadJoin(f *testing.F) {
	f.Add([]byte(seedJoin()))
	f.Add([]byte(`{"token":"00112233445566778899aabbccddeeff","sdp":"v=0\r\n"}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		j, _, err := ReadJoin(bytes.NewReader(b))
		if err == nil && !strings.Contains(j.SDP, "webrtc-datachannel") {
			t.Fatalf("taken without a data channel: %q", j.SDP)
		}
	})
}

// FuzzReadAnswer: the browser's reader of the room's answer.
func FuzzReadAnswer(f *testing.F) {
	f.Add([]byte(`{"sdp":` + quote(seedOffer) + `}`))
	f.Add([]byte(`{"error":"the room is full (16 browsers)","refusal":"full"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ReadAnswer(bytes.NewReader(b))
	})
}

// FuzzHub: a browser's messages of any size and content go through the
// hub to the session's server, which refuses what is not a sealed
// datagram of its session: no panic, and nothing reaches a slot.
func FuzzHub(f *testing.F) {
	f.Add([]byte{0x4e, 0x43, 0x42, 0x31}, []byte("hello"))
	f.Add(make([]byte, 4000), []byte{})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		h := NewHub(DefaultLimits())
		tok, _ := udp.NewToken()
		srv, err := udp.Serve(h, tok, udp.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		var got [][]byte
		addr, _ := h.add(recorder{&got}, DataChannel, "fuzz")
		h.deliver(addr, a)
		h.deliver(addr, b)
		h.deliver(netip.AddrPort{}, a) // from nobody
		for tick := range 3 {
			srv.Poll(wire.Tick(1 + tick))
		}
		if srv.Clients() != 0 {
			t.Fatal("a slot taken by bytes without the token")
		}
		for _, m := range got {
			if len(m) > udp.MaxDatagram {
				t.Fatalf("the server answered %d bytes", len(m))
			}
		}
	})
}

// recorder is a carrier that keeps what is sent to it.
type recorder struct{ got *[][]byte }

func (r recorder) send(b []byte) error {
	*r.got = append(*r.got, append([]byte(nil), b...))
	return nil
}
func (r recorder) close() {}

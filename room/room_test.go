//go:build !js

package room

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"netcubes/udp"
	"netcubes/wire"
)

// testRoom is a room on 127.0.0.1 with a udp.Server on its hub, served
// over httptest.
type testRoom struct {
	room *Room
	srv  *udp.Server
	http *httptest.Server
	tick wire.Tick
}

func newTestRoom(t *testing.T, force bool) *testRoom { return newRoomTB(t, force, true) }

// newTestRoomB is a room for the benchmarks: no session's server (they
// read the hub themselves) and no rate limit (they send as fast as the
// loopback interface carries).
func newTestRoomB(b *testing.B) *testRoom {
	tr := newRoomTB(b, false, false)
	tr.room.hub.limits = Limits{MessagesPerSecond: 1 << 30, BytesPerSecond: 1 << 40, BurstSeconds: 1, MaxMessage: 2048}
	return tr
}

func newRoomTB(t testing.TB, force, session bool) *testRoom {
	t.Helper()
	tok, err := udp.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Token, cfg.Loopback, cfg.ForceWebSocket = tok, true, force
	cfg.JoinsPerAddress, cfg.JoinsPerSecond, cfg.MaxConnections = 100, 100, MaxConnections
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var srv *udp.Server
	if session {
		if srv, err = udp.Serve(r.Hub(), tok, udp.DefaultConfig()); err != nil {
			t.Fatal(err)
		}
	}
	h := httptest.NewServer(r.Handler(nil))
	t.Cleanup(func() {
		h.Close()
		if srv != nil {
			srv.Close()
		}
		r.Close()
	})
	return &testRoom{room: r, srv: srv, http: h}
}

// poll advances the server and the clients until ok holds, at most limit
// ticks (about 5 ms each: the transports run on their own goroutines).
func (tr *testRoom) poll(t *testing.T, clients []*udp.Client, limit int, ok func() bool) {
	t.Helper()
	for range limit {
		tr.tick++
		tr.srv.Poll(tr.tick)
		for _, c := range clients {
			c.Poll(tr.tick)
		}
		if ok() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("not done after %d ticks", limit)
}

func TestJoinAndExchange(t *testing.T) {
	for _, force := range []bool{false, true} {
		name := map[bool]string{false: "data channel", true: "WebSocket forced"}[force]
		t.Run(name, func(t *testing.T) {
			tr := newTestRoom(t, force)
			var clients []*udp.Client
			for range 2 {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				conn, err := Dial(ctx, tr.http.URL, tr.room.cfg.Token, DialOptions{})
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				want := map[bool]Transport{false: DataChannel, true: WebSocket}[force]
				if conn.Transport() != want {
					t.Fatalf("joined over %v, want %v", conn.Transport(), want)
				}
				c, err := udp.DialOn(conn, ServerAddr, tr.room.cfg.Token, udp.DefaultConfig())
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { c.Close() })
				clients = append(clients, c)
			}
			tr.poll(t, clients, 2000, func() bool { return tr.srv.Clients() == 2 })
			got := 0
			tr.poll(t, clients, 2000, func() bool {
				for k := range 2 {
					tr.srv.Send(k, udp.KindData, []byte("hello"))
				}
				for _, c := range clients {
					c.Send(udp.KindData, []byte("ack"))
					got += len(c.Received(udp.KindData))
				}
				for k := range 2 {
					got += len(tr.srv.Received(k, udp.KindData))
				}
				return got >= 8
			})
			if n := tr.room.Hub().Open(); n != 2 {
				t.Errorf("%d connections open, want 2", n)
			}
			// A client that goes frees its connection at once.
			clients[1].Close()
			deadline := time.Now().Add(10 * time.Second)
			for tr.room.Hub().Open() != 1 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if n := tr.room.Hub().Open(); n != 1 {
				t.Errorf("%d connections open after one closed, want 1", n)
			}
		})
	}
}

func TestJoinRefusals(t *testing.T) {
	tr := newTestRoom(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	bad, _ := udp.NewToken()
	for _, force := range []bool{false, true} {
		_, err := Dial(ctx, tr.http.URL, bad, DialOptions{ForceWebSocket: force})
		var r RefusedError
		if !errors.As(err, &r) || r.Reason != "token" {
			t.Errorf("a wrong token (WebSocket %v): %v, want a token refusal", force, err)
		}
	}
	_, err := Dial(ctx, "http://127.0.0.1:1", bad, DialOptions{})
	if !errors.As(err, new(UnreachableError)) {
		t.Errorf("no server: %v, want unreachable", err)
	}
	if c := tr.room.Counts(); c.BadToken != 2 {
		t.Errorf("counted %d bad tokens, want 2", c.BadToken)
	}
	// Malformed offers: refused, counted, nothing built.
	for _, body := range []string{"", "{", `{"token":"` + tr.room.cfg.Token.String() + `","sdp":"v=0"}`,
		`{"token":"x","sdp":""}`, `{"token":"","sdp":"","extra":1}`, strings.Repeat("a", MaxSignalBytes+10)} {
		resp, err := tr.http.Client().Post(tr.http.URL+OfferPath, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Errorf("%.40q: answered 200", body)
		}
	}
	if n := tr.room.Hub().Open(); n != 0 {
		t.Errorf("%d connections after refusals, want 0", n)
	}
}

// TestFloodIsLimited: one connection flooding the hub loses its own
// messages past its rate; another's all arrive.
func TestFloodIsLimited(t *testing.T) {
	h := NewHub(Limits{MessagesPerSecond: 60, BytesPerSecond: 1 << 20, BurstSeconds: 1, MaxMessage: 2048})
	defer h.Close()
	var got [][]byte
	flood, _ := h.add(recorder{&got}, DataChannel, "flood")
	calm, _ := h.add(recorder{&got}, WebSocket, "calm")
	for i := range 900 {
		h.deliver(flood, []byte{1, 2, 3})
		if i%30 == 0 {
			h.deliver(calm, []byte{4, 5, 6})
		}
	}
	h.deliver(calm, make([]byte, 4096)) // oversized
	fromCalm := 0
	for len(h.in) > 0 {
		if d := <-h.in; d.from == calm {
			fromCalm++
		}
	}
	ps := h.Peers()
	if ps[0].Limited < 800 {
		t.Errorf("the flood lost %d messages to the limit, want most of 900", ps[0].Limited)
	}
	if fromCalm != 30 || ps[1].Limited != 0 || ps[1].Oversized != 1 {
		t.Errorf("the calm connection: %d of 30 arrived, %d limited, %d oversized (want 30, 0, 1)", fromCalm, ps[1].Limited, ps[1].Oversized)
	}
}

// TestFullRoom: past MaxConnections a join gets "full", and the room
// keeps serving the others.
func TestFullRoom(t *testing.T) {
	tr := newTestRoom(t, true)
	tr.room.cfg.MaxConnections = 2
	tok := tr.room.cfg.Token
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for range 2 {
		c, err := Dial(ctx, tr.http.URL, tok, DialOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	_, err := Dial(ctx, tr.http.URL, tok, DialOptions{})
	var r RefusedError
	if !errors.As(err, &r) || r.Reason != "full" {
		t.Errorf("a third join in a room of two: %v, want full", err)
	}
	if c := tr.room.Counts(); c.Full != 1 || c.Joined != 2 {
		t.Errorf("counts %+v, want 2 joined and 1 full", c)
	}
}

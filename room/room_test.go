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

func newTestRoom(t *testing.T, force bool) *testRoom {
	t.Helper()
	tok, err := udp.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Token, cfg.Loopback, cfg.ForceWebSocket = tok, true, force
	cfg.JoinsPerAddress = 100
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := udp.Serve(r.Hub(), tok, udp.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	h := httptest.NewServer(r.Handler(nil))
	t.Cleanup(func() {
		h.Close()
		srv.Close()
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
				conn, err := Dial(ctx, tr.http.URL, tr.room.Config().Token, DialOptions{})
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				want := map[bool]Transport{false: DataChannel, true: WebSocket}[force]
				if conn.Transport() != want {
					t.Fatalf("joined over %v, want %v", conn.Transport(), want)
				}
				c, err := udp.DialOn(conn, ServerAddr, tr.room.Config().Token, udp.DefaultConfig())
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
	for _, body := range []string{"", "{", `{"token":"` + tr.room.Config().Token.String() + `","sdp":"v=0"}`,
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

//go:build !js

package room

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"netcubes/udp"
)

// TestSixtyFourJoin: a classroom's 64 connections join a room with its
// default size (over WebSockets, the cheaper handshake), each gets a slot
// of the session, eight players' and 56 spectators'; the 65th is refused
// "full" in one line; when they leave, every connection closes.
func TestSixtyFourJoin(t *testing.T) {
	tr := newTestRoom(t, true)
	tr.room.cfg.MaxConnections = DefaultConfig().MaxConnections
	// The test is of slots, not of the join rate (64 joins in a fraction
	// of a second on a fast machine): TestJoinRateLimited checks that.
	tr.room.mu.Lock()
	tr.room.cfg.JoinsPerSecond, tr.room.cfg.JoinsPerAddress = 1000, 1000
	tr.room.all = newBucket(1000)
	clear(tr.room.perAddr)
	tr.room.mu.Unlock()
	if tr.room.cfg.MaxConnections != udp.MaxClients || udp.MaxClients != 64 {
		t.Fatalf("a room takes %d connections, a session %d slots: want 64 both", tr.room.cfg.MaxConnections, udp.MaxClients)
	}
	tr.srv.SetPlayers(8)
	tok := tr.room.cfg.Token
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var clients []*udp.Client
	for range udp.MaxClients {
		conn, err := Dial(ctx, tr.http.URL, tok, DialOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := udp.DialOn(conn, ServerAddr, tok, udp.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
	}
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	tr.poll(t, clients, 4000, func() bool { return tr.srv.Clients() == udp.MaxClients })
	players := 0
	for _, c := range clients {
		if st := c.Status(); st.Slot < st.Players {
			players++
		}
	}
	if players != 8 {
		t.Errorf("%d connections in players' slots, want 8 (and 56 spectators)", players)
	}
	_, err := Dial(ctx, tr.http.URL, tok, DialOptions{})
	var r RefusedError
	if !errors.As(err, &r) || r.Reason != "full" || strings.Contains(err.Error(), "\n") {
		t.Errorf("the 65th join: %v, want one line saying the room is full", err)
	}
	for _, c := range clients {
		c.Close()
	}
	clients = nil
	deadline := time.Now().Add(20 * time.Second)
	for tr.room.Hub().Open() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := tr.room.Hub().Open(); n != 0 {
		t.Errorf("%d connections open after all 64 left", n)
	}
	if c := tr.room.Counts(); c.Joined != 64 || c.Full != 1 {
		t.Errorf("counts %+v, want 64 joined and 1 refused as full", c)
	}
}

// TestJoinRateLimited: join requests from one address past its rate are
// refused "busy" and counted (ten in a row against one a second: on any
// machine some come within the same second), while a room that forces
// the WebSocket turns the offers away before counting them, so its
// students' joins are counted once, by their socket.
func TestJoinRateLimited(t *testing.T) {
	for _, force := range []bool{false, true} {
		tr := newTestRoom(t, force)
		tr.room.mu.Lock()
		tr.room.cfg.JoinsPerAddress = 1
		clear(tr.room.perAddr)
		tr.room.mu.Unlock()
		codes := map[int]int{}
		for range 10 {
			resp, err := tr.http.Client().Post(tr.http.URL+OfferPath, "application/json", strings.NewReader("{"))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			codes[resp.StatusCode]++
		}
		busy := tr.room.Counts().Busy
		switch {
		case force && (busy != 0 || codes[http.StatusConflict] != 10):
			t.Errorf("forced WebSocket: offers answered %v, %d counted busy: want every one turned to the socket, none counted", codes, busy)
		case !force && (busy == 0 || codes[http.StatusTooManyRequests] == 0 || int(busy) != codes[http.StatusTooManyRequests]):
			t.Errorf("offers answered %v, %d counted busy: want some refused busy, each counted", codes, busy)
		}
	}
}

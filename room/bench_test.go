//go:build !js && !windows

package room

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"testing"
	"time"

	"netcubes/udp"
)

// The transport's own costs on the loopback interface, under the session
// (go test -run '^$' -bench . ./room): a round trip over a UDP socket, a
// data channel and a WebSocket, and the CPU of a room whose server sends
// every client a packet each tick.

// echoHub answers every message on the hub with itself.
func echoHub(h *Hub) {
	buf := make([]byte, udp.MaxDatagram)
	for {
		n, from, err := h.ReadFromUDPAddrPort(buf)
		if err != nil {
			return
		}
		h.WriteToUDPAddrPort(buf[:n], from)
	}
}

func dialBench(b *testing.B, tr *testRoom, ws bool) *Conn {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := Dial(ctx, tr.http.URL, tr.room.cfg.Token, DialOptions{ForceWebSocket: ws})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

// BenchmarkRoundTrip: one 100-byte message there and back.
func BenchmarkRoundTrip(b *testing.B) {
	msg := make([]byte, 100)
	buf := make([]byte, udp.MaxDatagram)
	b.Run("udp-socket", func(b *testing.B) {
		srv, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close()
		go func() {
			sb := make([]byte, 2048)
			for {
				n, a, err := srv.ReadFromUDPAddrPort(sb)
				if err != nil {
					return
				}
				srv.WriteToUDPAddrPort(sb[:n], a)
			}
		}()
		cli, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			b.Fatal(err)
		}
		defer cli.Close()
		to := srv.LocalAddr().(*net.UDPAddr).AddrPort()
		b.ReportAllocs()
		for b.Loop() {
			cli.WriteToUDPAddrPort(msg, to)
			cli.ReadFromUDPAddrPort(buf)
		}
	})
	for _, ws := range []bool{false, true} {
		b.Run(map[bool]string{false: "datachannel", true: "websocket"}[ws], func(b *testing.B) {
			tr := newTestRoomB(b)
			go echoHub(tr.room.Hub())
			c := dialBench(b, tr, ws)
			b.ReportAllocs()
			for b.Loop() {
				c.WriteToUDPAddrPort(msg, ServerAddr)
				c.ReadFromUDPAddrPort(buf)
			}
		})
	}
}

// BenchmarkRoomTick: each op is one tick of a room with N data channels:
// the server sends each client a 532-byte packet (a state sync packet's
// mean) and each client answers 60 bytes (its acks and inputs). The
// reported cpu-µs/client is the process's CPU (the server's DTLS and SCTP
// and the clients' together: both run here) per client per tick.
func BenchmarkRoomTick(b *testing.B) {
	for _, n := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("clients=%d", n), func(b *testing.B) {
			tr := newTestRoomB(b)
			h := tr.room.Hub()
			conns := make([]*Conn, n)
			for i := range conns {
				conns[i] = dialBench(b, tr, false)
			}
			// The clients' addresses on the hub, in order of joining.
			deadline := time.Now().Add(10 * time.Second)
			for h.Open() < n && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			var addrs []netip.AddrPort
			for _, p := range h.Peers() {
				addrs = append(addrs, p.Addr)
			}
			down, up := make([]byte, 532), make([]byte, 60)
			buf := make([]byte, udp.MaxDatagram)
			hb := make([]byte, udp.MaxDatagram)
			cpu0 := cpuTime()
			b.ResetTimer()
			for b.Loop() {
				for _, a := range addrs {
					h.WriteToUDPAddrPort(down, a)
				}
				for _, c := range conns {
					tick := time.After(time.Second)
					got := make(chan struct{})
					go func() { c.ReadFromUDPAddrPort(buf); close(got) }()
					select {
					case <-got:
					case <-tick:
					}
					c.WriteToUDPAddrPort(up, ServerAddr)
				}
				for range conns {
					h.ReadFromUDPAddrPort(hb)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/1e3/float64(b.N)/float64(n), "cpu-µs/client")
		})
	}
}

// cpuTime is the process's CPU time, user and system, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

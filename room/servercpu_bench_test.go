//go:build !js && !windows

package room

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"netcubes/udp"
)

// The server's CPU per connected client, alone: the clients run in a
// child process (this test binary again, as TestBenchClients), so the
// server's process time (getrusage of this process, which does not count
// its children) is the room's side only: the hub, the carriers, pion's
// ICE, DTLS and SCTP (or the WebSocket's TCP), and the tick's loop
// sending each client a frame. The strategy's own cost (building the
// packet) is not in it: it is the same on every carrier (cmd/bench
// measures it). Each tick (60 a second, in real time, as the room runs)
// the server sends every client a 563-byte frame; each client answers 91
// bytes, which carry the frame's stamp back, so the server also measures
// the round trip as the room's clients see it.

// benchClientsEnv carries the child's orders: "carrier n addr token".
const benchClientsEnv = "NETCUBES_ROOM_BENCH_CLIENTS"

// TestBenchClients is the child process of BenchmarkServerCPU (skipped
// otherwise). It joins n clients, answers every frame, and on each line
// from its stdin prints its CPU time so far; it ends when stdin closes,
// or after 10 minutes.
func TestBenchClients(t *testing.T) {
	spec := os.Getenv(benchClientsEnv)
	if spec == "" {
		t.Skip("the child process of BenchmarkServerCPU")
	}
	f := strings.Fields(spec)
	if len(f) != 4 {
		t.Fatalf("%s=%q: want carrier n addr token", benchClientsEnv, spec)
	}
	n, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	closers, err := benchJoin(ctx, f[0], n, f[2], f[3])
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, c := range closers {
			c()
		}
	}()
	fmt.Println("ready")
	lines := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			lines <- struct{}{}
		}
		close(lines)
	}()
	for {
		select {
		case _, ok := <-lines:
			if !ok {
				return
			}
			fmt.Println(cpuTime())
		case <-ctx.Done():
			return
		}
	}
}

// benchJoin joins n clients that answer every frame.
func benchJoin(ctx context.Context, carrier string, n int, addr, token string) ([]func(), error) {
	var closers []func()
	for range n {
		var c udp.Conn
		to := ServerAddr
		switch carrier {
		case "udp":
			s, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
			if err != nil {
				return closers, err
			}
			if to, err = netip.ParseAddrPort(addr); err != nil {
				return closers, err
			}
			s.WriteToUDPAddrPort([]byte{0}, to) // hello: the server learns the address
			c = s
		case "datachannel", "websocket":
			tok, err := udp.ParseToken(token)
			if err != nil {
				return closers, err
			}
			rc, err := Dial(ctx, addr, tok, DialOptions{ForceWebSocket: carrier == "websocket"})
			if err != nil {
				return closers, err
			}
			c = rc
		default:
			return closers, fmt.Errorf("carrier %q", carrier)
		}
		closers = append(closers, func() { c.Close() })
		go benchEcho(c, to)
	}
	return closers, nil
}

// benchEcho answers each frame with holUp bytes that begin with its stamp.
func benchEcho(c udp.Conn, to netip.AddrPort) {
	buf := make([]byte, udp.MaxDatagram)
	up := make([]byte, holUp)
	for {
		n, _, err := c.ReadFromUDPAddrPort(buf)
		if err != nil {
			return
		}
		if n >= 8 {
			copy(up, buf[:8])
			c.WriteToUDPAddrPort(up, to)
		}
	}
}

// benchServer is the server's side: where it sends, and how it reads.
type benchServer struct {
	conn  udp.Conn
	peers []netip.AddrPort
	start time.Time
	mu    sync.Mutex
	from  time.Duration // answers to frames stamped before this are not counted
	rtts  []time.Duration
}

// read takes every answer and notes its round trip.
func (s *benchServer) read() {
	buf := make([]byte, udp.MaxDatagram)
	for {
		n, _, err := s.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			return
		}
		if n >= 8 {
			now, stamp := time.Since(s.start), time.Duration(binary.LittleEndian.Uint64(buf))
			s.mu.Lock()
			if stamp >= s.from {
				s.rtts = append(s.rtts, now-stamp)
			}
			s.mu.Unlock()
		}
	}
}

// benchChild starts the client process and waits for it to be ready.
type benchChild struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Scanner
}

func startBenchChild(b *testing.B, carrier string, n int, addr, token string) *benchChild {
	cmd := exec.Command(os.Args[0], "-test.run=^TestBenchClients$", "-test.bench=^$", "-test.v=false")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %s %s", benchClientsEnv, carrier, n, addr, token))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	c := &benchChild{cmd: cmd, stdin: stdin, out: bufio.NewScanner(stdout)}
	b.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	for c.out.Scan() {
		if c.out.Text() == "ready" {
			return c
		}
	}
	b.Fatalf("the client process ended before it was ready: %v", c.out.Err())
	return nil
}

// cpu asks the child for its CPU time so far.
func (c *benchChild) cpu(b *testing.B) int64 {
	fmt.Fprintln(c.stdin)
	for c.out.Scan() {
		if v, err := strconv.ParseInt(c.out.Text(), 10, 64); err == nil {
			return v
		}
	}
	b.Fatal("the client process did not answer")
	return 0
}

// BenchmarkServerCPU: one op is one tick (1/60 s of real time) of a room
// with N clients in another process. Reported: the server's CPU a tick
// (srv-µs/tick; with no client, what a process waking 60 times a second
// costs anyway), per client per tick (srv-µs/client), the clients'
// (cli-µs/client, all in the child process), and the round trip's
// median and 99th percentile as the server sees it.
//
//	go test -run '^$' -bench ServerCPU -benchtime 600x ./room
func BenchmarkServerCPU(b *testing.B) {
	for _, carrier := range []string{"udp", "datachannel", "websocket"} {
		for _, n := range []int{0, 1, 8, 32} {
			b.Run(fmt.Sprintf("%s/clients=%d", carrier, n), func(b *testing.B) {
				benchServerCPU(b, carrier, n)
			})
		}
	}
}

func benchServerCPU(b *testing.B, carrier string, n int) {
	s := &benchServer{start: time.Now()}
	var child *benchChild
	if carrier == "udp" {
		sock, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { sock.Close() })
		s.conn = sock
		child = startBenchChild(b, carrier, n, sock.LocalAddr().String(), "-")
		buf := make([]byte, 64)
		sock.SetReadDeadline(time.Now().Add(10 * time.Second))
		for len(s.peers) < n {
			_, a, err := sock.ReadFromUDPAddrPort(buf)
			if err != nil {
				b.Fatal("hellos:", err)
			}
			if !slices.Contains(s.peers, a) {
				s.peers = append(s.peers, a)
			}
		}
		sock.SetReadDeadline(time.Time{})
	} else {
		tr := unlimitedRoom(b)
		s.conn = tr.room.Hub()
		child = startBenchChild(b, carrier, n, tr.http.URL, tr.room.cfg.Token.String())
		h := tr.room.Hub()
		for deadline := time.Now().Add(10 * time.Second); h.Open() < n; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatalf("%d of %d clients on the hub", h.Open(), n)
			}
		}
		for _, p := range h.Peers() {
			s.peers = append(s.peers, p.Addr)
		}
	}
	go s.read()
	frame := make([]byte, holDown)
	tick := time.NewTicker(time.Second / 60)
	defer tick.Stop()
	for range 30 { // settle: half a second of ticks before measuring
		<-tick.C
		s.send(frame)
	}
	s.mu.Lock()
	s.rtts, s.from = s.rtts[:0], time.Since(s.start)
	s.mu.Unlock()
	cli0, srv0 := child.cpu(b), cpuTime()
	for b.Loop() {
		<-tick.C
		s.send(frame)
	}
	srv, cli := cpuTime()-srv0, child.cpu(b)-cli0
	time.Sleep(50 * time.Millisecond)
	perTick := func(ns int64) float64 { return float64(ns) / 1e3 / float64(b.N) }
	b.ReportMetric(perTick(srv), "srv-µs/tick")
	if n == 0 {
		return
	}
	b.ReportMetric(perTick(srv)/float64(n), "srv-µs/client")
	b.ReportMetric(perTick(cli)/float64(n), "cli-µs/client")
	s.mu.Lock()
	rtts := slices.Clone(s.rtts)
	s.mu.Unlock()
	slices.Sort(rtts)
	if len(rtts) > 0 {
		b.ReportMetric(float64(rtts[len(rtts)/2])/1e3, "rtt-p50-µs")
		b.ReportMetric(float64(rtts[len(rtts)*99/100])/1e3, "rtt-p99-µs")
	}
	b.ReportMetric(100*float64(len(rtts))/float64(b.N*n), "answered-%")
}

// send stamps the frame and sends it to every client.
func (s *benchServer) send(frame []byte) {
	binary.LittleEndian.PutUint64(frame, uint64(time.Since(s.start)))
	for _, a := range s.peers {
		s.conn.WriteToUDPAddrPort(frame, a)
	}
}

// Package udp runs the left and the right of netcubes as two processes
// over a real UDP socket: a datagram header with a protocol id, a version
// and a per-session token (protocol.go), and a connection with a
// handshake, timeouts, reconnects and counted drops (conn.go). The session
// (package game) carries exactly the packets of the one-process mode inside
// its data datagrams, so the bytes a strategy puts on the wire are the same
// in both modes.
//
// Go's standard net package is all it uses. Nothing here reads the clock:
// Poll is called once per tick, and timeouts are counted in ticks.
package udp

// Package room is the classroom: browsers join the presenter's world as
// the rights of a two-process session, over a WebRTC data channel (or a
// WebSocket where one cannot connect), instead of a UDP socket.
//
// Nothing above the datagram changes: the room's Hub is a udp.Conn on
// which the left's udp.Server runs (every browser has an address of its
// own on it), and a browser's Conn is a udp.Conn on which its udp.Client
// runs. So a browser's datagrams go through the same handshake, sealing,
// replay window, budgets and packet readers as a right's over UDP, and the
// session (package game) cannot tell a browser from a right process.
//
//   - hub.go: the server's side of every browser connection, its address,
//     its rate limit, its figures.
//   - signal.go: the join request (offer and token) and its strict reader.
//   - server.go: the HTTP endpoints: WebRTC signalling, the WebSocket.
//   - dial.go: the browser's side: a data channel, or the WebSocket.
//
// The data channel is unordered with no retransmission (ordered=false,
// maxRetransmits=0): UDP's semantics, what game traffic wants. SCTP runs
// inside DTLS, so the data channel is encrypted twice (DTLS, then the
// session's own AEAD): the cost is measured, not hidden (cmd/bench -room).
package room

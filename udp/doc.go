// Package udp runs the left and the right of netcubes as separate
// processes over a real UDP socket, safe on a network nobody trusts: every
// datagram after the handshake is sealed (ChaCha20-Poly1305) with
// per-session keys derived from the token the left prints and an X25519
// exchange, checked against a replay window, and bound to one client slot.
// The design follows netcode.io (connect request, challenge, response,
// sealed packets, replay protection) and QUIC's address validation (RFC
// 9000 §8: nothing more than a same-size answer goes to an address before
// it proves it receives there).
//
//   - protocol.go: the header, the kinds, the token, the sizes, the design
//     note of the protocol.
//   - crypto.go: key derivation, sealing, the cookie, the replay window,
//     the token bucket.
//   - budget.go: the left's budgets for strangers, per source address and
//     per right key.
//   - socket.go: the socket, its reader and its queue bounded in bytes, the
//     Config, the drop counts.
//   - server.go: the left (Server): slots, handshakes, path validation.
//   - client.go: the right (Client): connecting, retrying, refusals,
//     silence.
//
// The session (package game) carries exactly the packets of the
// one-process mode inside data datagrams, so the bytes a strategy puts on
// the wire are the same in both modes, 31 bytes of overhead aside.
//
// Go's standard library and golang.org/x/crypto are all it uses. Poll is
// called once per tick, and timeouts are counted in ticks; the only clock
// read is Config.Clock, to stamp a connect and judge its freshness.
package udp

package udp

import (
	"errors"

	"netcubes/wire"
)

// Design note: the datagrams of the two-process mode. Every datagram starts
// with the same header, written and read by one Serialize like every packet
// of netcubes:
//
//	protocol id  32 bits  "NCUB": anything else is not ours and is dropped
//	version       8 bits  a left and a right of different versions refuse
//	                      each other (they would misread every packet)
//	kind          3 bits  connect request, accept, deny, data, control,
//	                      diagnostics, disconnect, keep-alive
//	token        64 bits  the session's secret: the left draws it at random
//	                      and prints it; the right must present it
//
// then, byte-aligned, a body by kind. A data datagram's body is exactly the
// packet the one-process session would send over its simulated link, so the
// bytes of a strategy on the wire are the same in both modes; control and
// diagnostics have their own formats (control.go, diag.go).
//
// The 108-bit header rounds up to 14 bytes. It is the price of not being
// fooled: a stray datagram (a port scan, an old right from a previous run,
// a replayed packet of another session) fails the id, the version or the
// token and is dropped and counted before any strategy sees it.

// ProtocolID is "NCUB" read as a little-endian 32-bit word.
const ProtocolID uint32 = 'N' | 'C'<<8 | 'U'<<16 | 'B'<<24

// Version is the protocol's version; bump it with any format change.
const Version uint8 = 1

// Kind says what a datagram carries.
type Kind uint8

// The kinds of datagram.
const (
	KindConnect    Kind = iota // right → left: please take me (token, version)
	KindAccept                 // left → right: you are connected (session state)
	KindDeny                   // left → right: wrong token or version, with the reason
	KindData                   // either way: a strategy's packet, as in one process
	KindControl                // left → right: the strategy, its settings, the link
	KindDiag                   // left → right: the truth, for the right's error figure
	KindDisconnect             // either way: I am leaving
	KindKeepAlive              // either way: still here (only when nothing else flows)

	numKinds = iota
)

var kindNames = [numKinds]string{"connect", "accept", "deny", "data", "control", "diagnostics", "disconnect", "keep-alive"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < numKinds {
		return kindNames[k]
	}
	return "unknown"
}

// Token is a session's secret, drawn by the left at start.
type Token uint64

// HeaderBytes is the size of the header once byte-aligned.
const HeaderBytes = (32 + 8 + 3 + 64 + 7) / 8

// Header starts every datagram.
type Header struct {
	Protocol uint32
	Version  uint8
	Kind     Kind
	Token    Token
}

// Errors of the header; sentinels, so dropping a datagram never allocates.
var (
	ErrNotOurs      = errors.New("udp: not a netcubes datagram")
	ErrWrongVersion = errors.New("udp: another protocol version")
)

// Serialize writes, reads or measures the header, then aligns to a byte.
// Reading checks the protocol id (ErrNotOurs); the version is read and left
// for the caller to judge (a left answers a wrong version with a deny that
// says which version it speaks).
func (h *Header) Serialize(s wire.Stream) error {
	s.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeUint32(s, &h.Protocol); err != nil {
		return err
	}
	if s.IsReading() && h.Protocol != ProtocolID {
		return s.Fail(ErrNotOurs)
	}
	if err := wire.SerializeInt(s, &h.Version, 0, 255); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &h.Kind, 0, numKinds-1); err != nil {
		return err
	}
	tok := uint64(h.Token)
	if err := wire.SerializeUint64(s, &tok); err != nil {
		return err
	}
	h.Token = Token(tok)
	return s.SerializeAlign()
}
